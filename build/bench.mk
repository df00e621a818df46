# Micro-benchmarks of the pipeline's stages (benches/pipeline.rs). `make bench` fails on
# superlinear growth and reports latency against bench/results/micro-baseline.json;
# BENCH_ARGS=--gate-latency also gates on latency (only meaningful on the machine that
# recorded the baseline). `make bench-save` rewrites that baseline from this machine.

.PHONY: bench bench-save

bench:
	cargo bench --locked --bench pipeline -- $(BENCH_ARGS)

bench-save:
	cargo bench --locked --bench pipeline -- --save $(BENCH_ARGS)
