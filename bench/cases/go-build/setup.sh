#!/usr/bin/env bash
# A Go module whose package fails to compile: a type mismatch, an undefined name, an unused
# import and an unused variable, in two files.
set -euo pipefail
cd "$1"
cat > go.mod <<'GO'
module example.com/stock

go 1.19
GO
cat > main.go <<'GO'
package main

import (
	"fmt"
	"os"
)

func main() {
	var count int = "twelve"
	fmt.Println(count, total(3))
}
GO
cat > calc.go <<'GO'
package main

func total(n int) int {
	unused := n * 2
	return n + missing
}
GO
