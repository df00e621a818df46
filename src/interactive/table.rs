//! The survey: which programs keep the terminal, one row per program or subcommand.
//!
//! Rows are grouped by kind (REPLs, shells, database clients, editors, pagers and
//! full-screen programs, git, remote sessions, containers, commands that never end, watch
//! modes, dev servers, package scripts, prompts printed on stdout, debuggers, wrappers).
//! A row names the program (`*` at the end matches a family: `create-*`), optionally the
//! subcommands it is for, and the short reason the log records when it exec's. Then:
//!
//! - `opts`: the options the program has, space separated, so values are skipped and
//!   operands found. `-m=` and `--file=` take a value (the next word or attached), `-p:`
//!   only an attached one, anything else listed is a switch. `*=` makes unlisted options
//!   take a value: rows that must find an operand (the script, the wrapped command) use
//!   it, because guessing "switch" would mistake a value for the command. `--` keeps
//!   options going past `--`, `+` reads `+word` as a switch (`cargo +nightly`), `-word`
//!   reads `-abc` as one option rather than a cluster (`terraform -auto-approve`).
//! - `exec_if` / `capture_if`: tiers read in order, the first with something present
//!   decides. An option matches as typed or inside a cluster (`-it` holds `-t`);
//!   `--x=v` matches `--x` whose value starts with `v`; a word without a dash matches an
//!   operand, ASCII case ignored, `*` at either end a wildcard.
//! - `inner`: a wrapped command that decides instead (`Inner` in `interactive.rs`).
//! - `batch_with(n)`: n operands make it a batch run (`sqlite3 DB SQL`).
//! - `exec()`, `bare_exec()`, `bare_capture()`: the outcome otherwise (capture unless
//!   said), and with no operand at all.
//!
//! Adding a program is adding a row here and a case to the tests below; the tests fail
//! for a row no case reaches, a program and subcommand claimed twice, or an exec with no
//! reason.

use super::Inner::{As, At, ShellAt, ShellValue, Value};
use super::{Row, cmd, sub};

const PYTHON_OPTS: &str = "-b -B -d -E -h -i -I -O -P -q -s -S -u -v -V -x -R -? --help \
    --help-env --help-xoptions --help-all --version -c= -m= -W= -X= *=";
const SHELL_OPTS: &str = "-c= --command= --commands= -o= -O= +o= +O= -C= --init-command= \
    --rcfile= --init-file= --config= --env-config= --profile= --debug-output= -d=";
const NODE_OPTS: &str = "-r= --require= --import= --loader= --experimental-loader= -C= \
    --conditions= --env-file= --title= --input-type= --inspect-port= --stack-size= \
    --disable-warning= --watch-path= -e= --eval= -p= --print= --run=";
const SCRIPT_OPTS: &str = "-- --cwd= --prefix= -w= --workspace= --filter= -F= -C= --dir=";
const DOCKER_RUN_OPTS: &str = "-d --detach -i --interactive -t --tty -P --publish-all --rm \
    --init --privileged --read-only --no-healthcheck --oom-kill-disable -q --quiet \
    --disable-content-trust --help --use-api-socket -T --no-TTY --service-ports \
    --use-aliases --no-deps --build --quiet-pull --remove-orphans *=";
const GIT_COMMIT_OPTS: &str = "-m= -F= -C= -c= -t= -S: --message= --file= --reuse-message= \
    --reedit-message= --template= --author= --date= --cleanup= --trailer= --fixup= --squash=";

/// The reason for a wrapper that exec's because it wraps nothing lens can read (`env`
/// alone prints, `sudo -i` and `nix-shell` open a shell, `npx` with no command too).
pub(super) const WRAPPED: &str = "wrapper without a command lens can read";

/// The survey. Rows are grouped by kind; within a row, tiers read left to right.
pub(super) static TABLE: &[Row] = &[
    // --- REPLs: a session unless a script, a module or code is given.
    cmd("python pypy pypy3", "Python REPL")
        .opts(PYTHON_OPTS)
        .exec_if("-i")
        .capture_if("-c -V --version -h -? --help --help-all --help-env --help-xoptions")
        .inner(Value("-m"))
        .inner(At(0))
        .exec(),
    cmd("ipython IPython", "IPython REPL")
        .opts(
            "-i --no-banner --quick --classic --pylab --nosep --pdb \
            --pprint --version -h --help -c= -m= *=",
        )
        .exec_if("-i")
        .capture_if("-c -m --version -h --help")
        .inner(At(0))
        .exec(),
    cmd(
        "bpython ptpython ptipython pry jshell groovysh utop spark-shell pyspark",
        "REPL",
    )
    .exec(),
    cmd("node nodejs ts-node", "Node REPL")
        .opts(NODE_OPTS)
        .exec_if("-i --interactive --watch --watch-path --inspect-brk --inspect-wait")
        .capture_if(
            "-e --eval -p --print -c --check -v --version -h --help \
            --test --run --v8-options",
        )
        .inner(At(0))
        .exec(),
    cmd("tsx", "TypeScript REPL or watch mode")
        .opts(NODE_OPTS)
        .exec_if("watch --watch -i --interactive")
        .capture_if("-e --eval -p --print -v --version -h --help --test")
        .inner(At(0))
        .exec(),
    cmd("deno", "Deno REPL").bare_exec(),
    sub("deno", "repl lsp serve jupyter", "Deno REPL or server").exec(),
    sub("deno", "run", "watch mode").exec_if("--watch --watch-hmr"),
    sub("deno", "task", "dev server or watch script").inner(As("<script>")),
    cmd("irb", "Ruby REPL")
        .capture_if("-v --version -h --help")
        .exec(),
    cmd("ruby", "Ruby reads its program from the terminal")
        .opts("-e= -r= -I= -C= -E= -F= -x: -0: -K: -T: -W: *")
        .capture_if("-e -v --version -h --help -c -y --yydebug")
        .inner(At(0))
        .exec(),
    cmd("perl", "Perl debugger or program from the terminal")
        .opts("-e= -E= -I= -M= -m= -x: -0: -l: -i: -D: -C:")
        .exec_if("-d")
        .capture_if("-e -E -v -V -c -h")
        .inner(At(0))
        .exec(),
    cmd("php", "PHP shell or built-in server")
        .opts("-c= -d= -f= -r= -B= -R= -F= -E= -t= -z= -S= --define= --run= *")
        .exec_if("-a -S --interactive --server")
        .capture_if("-r -v --version -l -i -m -h --help -f")
        .inner(At(0))
        .exec(),
    cmd("lua luajit", "Lua REPL")
        .opts("-e= -l= -i -v -E -W *=")
        .exec_if("-i")
        .capture_if("-e -v")
        .inner(At(0))
        .exec(),
    cmd("R", "R session")
        .capture_if("-f --file -e --version -h --help CMD")
        .exec(),
    cmd("julia", "Julia REPL")
        .opts(
            "-e= -E= -L= -J= -p= -t= -C= -O: -g: --eval= --print= --load= \
            --threads= --procs= --project:",
        )
        .exec_if("-i")
        .capture_if("-e --eval -E --print -v --version -h --help")
        .inner(At(0))
        .exec(),
    cmd("erl", "Erlang shell")
        .opts("-word -eval= -s= -run= -pa= -pz= -sname= -name= -setcookie= -config=")
        .capture_if("-noshell -detached -version")
        .exec(),
    cmd("iex", "Elixir shell")
        .capture_if("-e --eval -v --version -h --help")
        .exec(),
    cmd("ghci", "GHCi REPL")
        .capture_if("-e --version --numeric-version")
        .exec(),
    cmd("ghc", "GHCi REPL").exec_if("--interactive"),
    sub("stack cabal", "repl ghci", "GHCi REPL").exec(),
    sub("lein", "repl run trampoline", "Clojure REPL or program").exec(),
    cmd("clj clojure", "Clojure REPL").exec(),
    cmd("sbt", "sbt shell, run or ~watch")
        .exec_if("run console consoleQuick shell ~*")
        .bare_exec(),
    cmd(
        "scala kotlinc kotlin ocaml racket tclsh octave sage qalc",
        "REPL",
    )
    .opts("-e= --eval= -c= -version --version -vnum -h --help -i --repl *=")
    .exec_if("-i --repl")
    .capture_if("-e --eval -c -version --version -vnum -h --help")
    .inner(At(0))
    .exec(),
    cmd("guile", "Guile REPL")
        .opts("-c= -s= -l= -e= -L= -x= *")
        .capture_if("-c -s -v --version -h --help")
        .inner(At(0))
        .exec(),
    cmd("sbcl", "Lisp REPL")
        .capture_if("--script --non-interactive --version --help")
        .exec(),
    cmd("swipl", "Prolog toplevel")
        .capture_if("-t -c --version --help")
        .exec(),
    cmd("maxima", "Maxima session")
        .capture_if("-b --batch --batch-string -r --run-string --version")
        .exec(),
    cmd("matlab", "MATLAB session")
        .opts("-word")
        .capture_if("-batch")
        .exec(),
    cmd("gnuplot", "gnuplot session")
        .capture_if("-e -V --version")
        .inner(At(0))
        .exec(),
    cmd("bc dc calc wish", "calculator or Tk session").exec(),
    // --- Shells: a session unless -c or a script is given.
    cmd(
        "bash sh zsh fish dash ksh mksh ash yash posh oksh tcsh csh \
            nu elvish xonsh ion osh ysh",
        "interactive shell",
    )
    .opts(SHELL_OPTS)
    .exec_if("-i -s --interactive")
    .capture_if("--version --help -n --no-execute")
    .inner(ShellValue("-c --command --commands"))
    .inner(At(0))
    .exec(),
    cmd("pwsh powershell", "PowerShell session")
        .opts("-word -Command= -command= -c= -File= -file= -f= *")
        .capture_if("-c -Command -command -f -File -file -NonInteractive -v -Version -version")
        .inner(At(0))
        .exec(),
    cmd("busybox", "interactive shell").inner(At(0)),
    cmd("script", "terminal session recording")
        .opts(
            "-a -e -f -q --append --return --flush --quiet -c= --command= \
            -t: -T= -I= -O= -B= -m= -E= *=",
        )
        .inner(ShellValue("-c --command"))
        .exec(),
    // --- Database clients: a session unless a command or file is given.
    cmd("psql", "psql session")
        .opts(
            "-c= -d= -f= -h= -p= -U= -v= -P= -o= -L= -T= -F= -R= \
            --command= --file= --dbname= --host= --port= --username= --set= --variable= --pset= \
            --output= --log-file=",
        )
        .capture_if("-c --command -f --file -l --list -V --version -? --help")
        .exec(),
    cmd("mysql mariadb", "MySQL session")
        .opts(
            "-h= -u= -P= -D= -S= -e= -p: --host= --user= --port= \
            --database= --socket= --execute=",
        )
        .capture_if("-e --execute -V --version -? --help")
        .exec(),
    cmd("sqlite3 sqlite", "SQLite session")
        .opts(
            "-word -cmd= -init= -separator= -nullvalue= -newline= -mmap= \
            -vfs= -lookaside= -pagecache= -heap= -maxsize=",
        )
        .capture_if("-version -help")
        .batch_with(2)
        .exec(),
    cmd("duckdb", "DuckDB session")
        .opts("-word -c= -s= -f= -cmd= -init= -separator= -nullvalue= -newline=")
        .capture_if("-c -s -f -version -help")
        .batch_with(2)
        .exec(),
    cmd("redis-cli valkey-cli", "Redis session or stream")
        .opts(
            "-h= -p= -s= -a= -u= -r= -i= -n= -d= -D= --user= --pass= \
            --tls --cacert= --cert= --key= --sni=",
        )
        .exec_if(
            "--stat --monitor --latency --latency-history --latency-dist \
            --pipe monitor subscribe psubscribe ssubscribe",
        )
        .capture_if("--scan --bigkeys --memkeys --rdb -v --version --help")
        .batch_with(1)
        .exec(),
    cmd("mongosh mongo", "MongoDB shell")
        .opts(
            "--eval= -f= --file= -u= -p= --host= --port= --username= \
            --password= --authenticationDatabase=",
        )
        .exec_if("--shell")
        .capture_if("--eval -f --file --version --help")
        .exec(),
    cmd("cqlsh", "CQL shell")
        .opts("-e= -f= -u= -p= -k=")
        .capture_if("-e --execute -f --file --version")
        .exec(),
    cmd("clickhouse-client", "ClickHouse client")
        .opts("-q= --query= --queries-file= -h= --host= -u= --user=")
        .capture_if("-q --query --queries-file")
        .exec(),
    cmd("usql", "SQL session")
        .opts("-c= -f= --command= --file=")
        .capture_if("-c --command -f --file")
        .exec(),
    cmd("pgcli mycli litecli iredis sqlplus", "SQL session")
        .capture_if("-e --execute")
        .exec(),
    // --- Editors.
    cmd("vi vim nvim view vimdiff nvimdiff rvim ex", "editor")
        .capture_if("-es -Es --headless --version -h --help")
        .exec(),
    cmd("emacs", "editor")
        .capture_if("--batch -batch --script -script --version")
        .exec(),
    cmd("emacsclient", "editor")
        .capture_if("-n --no-wait -e --eval --version")
        .exec(),
    cmd(
        "nano pico micro hx helix kak joe jed mcedit ne mg vis amp \
            kilo ed sudoedit visudo vipw vigr",
        "editor",
    )
    .exec(),
    cmd(
        "code codium cursor subl zed",
        "editor waits for the file to close",
    )
    .exec_if("-w --wait"),
    cmd("crontab", "editor").opts("-u=").exec_if("-e"),
    sub("systemctl", "edit", "editor").exec(),
    // --- Pagers, manuals and full-screen programs.
    cmd("less more most pg", "pager").exec(),
    cmd("man", "manual pager")
        .capture_if("-k -f -w --apropos --whatis --where --path --version")
        .exec(),
    cmd("info pinfo", "manual browser").exec(),
    cmd("w3m lynx links elinks", "text browser")
        .capture_if("-dump --dump -source -version")
        .exec(),
    cmd("top", "full-screen monitor")
        .opts("-n= -d= -p= -u= -U= -o= -O= -w:")
        .capture_if("-n")
        .exec(),
    cmd(
        "htop btop bpytop bashtop gotop ytop atop glances nmon iftop \
            nethogs bmon nvtop powertop s-tui k9s lazydocker ctop zenith btm gtop vtop lnav",
        "full-screen monitor",
    )
    .exec(),
    cmd("iotop", "full-screen monitor")
        .capture_if("-b --batch")
        .exec(),
    cmd("watch", "repeats a command full-screen").exec(),
    cmd("tmux", "terminal multiplexer")
        .capture_if(
            "ls list-sessions list-windows list-panes list-clients \
            send-keys send kill-session kill-server kill-window has-session has display-message \
            capture-pane source-file show-options -V",
        )
        .exec(),
    cmd("screen", "terminal multiplexer")
        .capture_if("-ls -list -X -Q -v -version")
        .exec(),
    cmd("byobu zellij abduco dtach", "terminal multiplexer").exec(),
    cmd("fzf sk", "interactive picker")
        .capture_if("-f --filter --version")
        .exec(),
    cmd("peco percol dialog whiptail gum", "interactive picker").exec(),
    cmd(
        "tig lazygit gitui ncdu ranger mc nnn lf vifm broot yazi xplr \
            mutt neomutt irssi weechat newsboat cmus ncmpcpp alsamixer nmtui cfdisk cgdisk \
            mitmproxy vimtutor",
        "full-screen program",
    )
    .exec(),
    // --- Git: the subcommand and its flags decide.
    cmd(
        "git",
        "git subcommand lens does not know (an alias may open an editor)",
    )
    .opts(
        "-C= -c= --git-dir= --work-tree= --namespace= --super-prefix= \
            --config-env= --list-cmds=",
    )
    .capture_if("--version -v --help -h")
    .bare_capture()
    .exec(),
    sub(
        "git",
        "status log diff show blame annotate fetch push clone init \
            ls-files ls-tree ls-remote rev-parse rev-list describe reflog remote submodule \
            worktree bisect cherry apply format-patch archive gc fsck mv rm cat-file for-each-ref \
            shortlog count-objects version help merge-base show-ref symbolic-ref update-ref \
            name-rev range-diff whatchanged sparse-checkout maintenance prune repack check-ignore \
            check-attr hash-object update-index write-tree read-tree diff-tree diff-files \
            diff-index verify-commit verify-tag switch lfs bundle var",
        "",
    ),
    sub("git", "add", "git add asks per hunk or opens an editor")
        .opts("--chmod= --pathspec-from-file=")
        .exec_if("-p --patch -i --interactive -e --edit"),
    sub("git", "checkout restore reset", "git asks per hunk")
        .opts("-b= -B= -s= --source= --conflict= --pathspec-from-file=")
        .exec_if("-p --patch"),
    sub("git", "stash", "git asks per hunk")
        .opts("-m= --message= --pathspec-from-file=")
        .capture_if("show list")
        .exec_if("-p --patch"),
    sub("git", "commit", "git commit opens an editor")
        .opts(GIT_COMMIT_OPTS)
        .exec_if(
            "-e --edit -p --patch --interactive -c --reedit-message \
            --fixup=amend: --fixup=reword:",
        )
        .capture_if("-m --message -F --file -C --reuse-message --no-edit --fixup --dry-run")
        .exec(),
    sub(
        "git",
        "rebase",
        "git rebase opens the todo list or an editor",
    )
    .opts(
        "-x= --exec= -s= --strategy= -X= --strategy-option= --onto= \
            -C= -S: --empty= --whitespace=",
    )
    .capture_if("--abort --quit --skip --show-current-patch")
    .exec_if("-i --interactive --continue --edit-todo"),
    sub(
        "git",
        "merge",
        "git merge opens an editor for the merge message",
    )
    .opts("-m= -F= -s= -X= --strategy= --strategy-option= --file= --into-name= -S: --cleanup=")
    .exec_if("-e --edit --continue")
    .capture_if("--no-edit --ff-only --no-commit --squash --abort --quit")
    .exec(),
    sub("git", "pull", "git pull may open an editor for a merge")
        .opts(
            "-s= -X= --strategy= --strategy-option= --depth= --deepen= \
            --shallow-since= --shallow-exclude= -j= --jobs= -o=",
        )
        .exec_if("-e --edit --rebase=interactive --rebase=i --rebase=false --no-rebase")
        .capture_if("--no-edit --ff-only -r --rebase --no-commit --squash")
        .exec(),
    sub("git", "revert", "git revert opens an editor")
        .opts("-m= --mainline= -s= -X= --strategy= --strategy-option= -S:")
        .exec_if("-e --edit --continue")
        .capture_if("--no-edit -n --no-commit --abort --quit --skip")
        .exec(),
    sub("git", "cherry-pick", "git cherry-pick opens an editor")
        .opts("-m= --mainline= -s= -X= --strategy= --strategy-option= -S:")
        .exec_if("-e --edit --continue"),
    sub("git", "tag", "git tag -a opens an editor")
        .opts("-m= -F= -u= --message= --file= --local-user= --sort= --format= --cleanup= -n:")
        .exec_if("-e --edit")
        .capture_if("-m --message -F --file -l --list -d --delete -v --verify")
        .exec_if("-a --annotate -s --sign -u --local-user"),
    sub("git", "notes", "git notes opens an editor")
        .opts("-m= -F= -C= -c= --message= --file= --reuse-message= --reedit-message= --ref=")
        .exec_if("edit -c --reedit-message")
        .capture_if(
            "-m --message -F --file -C --reuse-message list show remove \
            prune get-ref merge copy",
        )
        .bare_capture()
        .exec(),
    sub("git", "am", "git am -i asks per patch").exec_if("-i --interactive"),
    sub("git", "clean", "git clean -i asks")
        .opts("-e= --exclude=")
        .exec_if("-i --interactive"),
    sub("git", "config", "git config opens an editor")
        .opts("-f= --file= --blob= --type= --default=")
        .exec_if("-e --edit edit"),
    sub("git", "branch", "git branch opens an editor").exec_if("--edit-description"),
    sub("git", "grep", "git grep opens a pager")
        .opts("-e= -f= -A= -B= -C= -m= --max-depth= --threads=")
        .exec_if("-O --open-files-in-pager"),
    sub("git", "replace", "git replace opens an editor").exec_if("-e --edit"),
    sub(
        "git",
        "mergetool difftool send-email gui citool instaweb daemon",
        "git starts a tool or server",
    )
    .exec(),
    // --- Remote sessions: a session unless a remote command is given.
    cmd("ssh", "remote session")
        .opts("-B= -b= -c= -D= -E= -e= -F= -I= -i= -J= -L= -l= -m= -O= -o= -p= -Q= -R= -S= -W= -w=")
        .exec_if("-t -N -W")
        .capture_if("-V -G -O -Q")
        .inner(ShellAt(1))
        .exec(),
    cmd(
        "mosh telnet et autossh socat minicom picocom cu ftp",
        "remote session",
    )
    .exec(),
    cmd("sftp", "remote session").capture_if("-b").exec(),
    cmd("lftp", "remote session")
        .opts("-c= -e= -f= -u= -p=")
        .capture_if("-c -f")
        .exec(),
    cmd("nc ncat netcat", "network session")
        .capture_if("-z -h")
        .exec(),
    sub("openssl", "s_client s_server", "network session").exec(),
    sub("vagrant", "ssh", "remote session")
        .capture_if("-c --command")
        .exec(),
    // --- Containers and clusters.
    cmd("docker podman nerdctl", "").opts(
        "-H= --host= --context= -c= --config= -l= --log-level= \
            --tlscacert= --tlscert= --tlskey=",
    ),
    sub(
        "docker podman nerdctl",
        "run",
        "container with the image's own command (or a terminal)",
    )
    .opts(DOCKER_RUN_OPTS)
    .capture_if("-d --detach")
    .exec_if("-i -t --interactive --tty")
    .inner(At(1))
    .exec(),
    sub(
        "docker podman nerdctl",
        "exec",
        "container command with a terminal",
    )
    .opts(DOCKER_RUN_OPTS)
    .capture_if("-d --detach")
    .exec_if("-i -t --interactive --tty")
    .inner(At(1)),
    sub("docker podman nerdctl", "start", "attached container")
        .exec_if("-a --attach -i --interactive"),
    sub(
        "docker podman nerdctl",
        "attach events",
        "attached container or event stream",
    )
    .exec(),
    sub("docker podman nerdctl", "logs", "follows logs")
        .opts("--since= --until= -n= --tail=")
        .exec_if("-f --follow"),
    sub("docker podman nerdctl", "stats", "live statistics")
        .capture_if("--no-stream")
        .exec(),
    sub("docker podman nerdctl", "login", "prompts for credentials")
        .opts("-u= --username= -p= --password=")
        .capture_if("--password-stdin -p --password")
        .exec(),
    sub("docker podman nerdctl", "container", "asks before pruning")
        .capture_if("-f --force")
        .exec_if("prune")
        .inner(As("docker")),
    sub(
        "docker podman nerdctl",
        "system image volume network builder",
        "asks before pruning",
    )
    .capture_if("-f --force")
    .exec_if("prune"),
    sub("docker podman nerdctl", "compose", "").inner(As("docker-compose")),
    cmd("docker-compose podman-compose", "").opts(
        "-f= --file= -p= --project-name= --profile= --env-file= \
            --project-directory= --ansi= --progress= --parallel=",
    ),
    sub(
        "docker-compose podman-compose",
        "up",
        "services in the foreground",
    )
    .capture_if("-d --detach --wait --dry-run")
    .exec(),
    sub("docker-compose podman-compose", "logs", "follows logs")
        .opts("-n= --tail= --since= --until=")
        .exec_if("-f --follow"),
    sub(
        "docker-compose podman-compose",
        "run exec",
        "service command with a terminal",
    )
    .opts(DOCKER_RUN_OPTS)
    .capture_if("-d --detach")
    .exec_if("-i --interactive")
    .inner(At(1))
    .exec(),
    sub(
        "docker-compose podman-compose",
        "attach watch events",
        "attached service or event stream",
    )
    .exec(),
    sub("docker-compose podman-compose", "stats", "live statistics")
        .capture_if("--no-stream")
        .exec(),
    cmd("kubectl oc", "").opts(
        "-n= --namespace= --context= --cluster= --kubeconfig= -s= \
            --server= --user= --token= --as= --request-timeout= --cache-dir= -v=",
    ),
    sub("kubectl oc", "exec", "pod command with a terminal")
        .opts(
            "-c= --container= -f= --filename= --pod-running-timeout= -i \
            -t --stdin --tty -q --quiet *=",
        )
        .exec_if("-i -t --stdin --tty")
        .inner(At(1)),
    sub("kubectl oc", "run debug", "pod with a terminal")
        .opts("--image= -n= -c= --container= --target= --profile=")
        .exec_if("-i -t --stdin --tty --attach"),
    sub(
        "kubectl oc",
        "attach port-forward proxy edit rsh",
        "attached, forwarding or editing",
    )
    .exec(),
    sub("kubectl oc", "logs", "follows logs")
        .opts("-c= --container= -l= --selector= --since= --tail=")
        .exec_if("-f --follow"),
    sub("kubectl oc", "get events", "watches resources")
        .opts("-o= --output= -l= --selector= --field-selector=")
        .exec_if("-w --watch --watch-only"),
    sub("kubectl oc", "create apply", "editor")
        .opts("-f= --filename= -o= --output=")
        .exec_if("--edit edit-last-applied"),
    cmd("minikube", "dashboard, tunnel or session").exec_if("dashboard tunnel ssh mount"),
    cmd("skaffold tilt", "development loop").exec_if("dev debug up"),
    cmd("stern kubetail multitail", "follows logs").exec(),
    sub("lxc incus", "shell console", "container session").exec(),
    sub("lxc incus multipass", "exec", "container session")
        .inner(At(1))
        .exec(),
    sub("multipass", "shell", "VM session").exec(),
    sub("toolbox distrobox", "enter", "container session").exec(),
    sub("virsh", "console edit", "console or editor").exec(),
    sub("machinectl", "shell login", "container session").exec(),
    // --- Commands that never end by themselves.
    cmd("tail", "follows a file")
        .opts(
            "-n= -c= -s= --pid= --lines= --bytes= --sleep-interval= \
            --max-unchanged-stats=",
        )
        .exec_if("-f -F --follow"),
    cmd("journalctl", "follows the journal")
        .opts(
            "-u= -n= -p= -t= -o= -b: --since= --until= --unit= --output= \
            --lines=",
        )
        .exec_if("-f --follow"),
    cmd("dmesg", "follows the kernel log").exec_if("-w --follow -W --follow-new"),
    cmd("ping ping6 arping", "pings until interrupted")
        .opts(
            "-c= -i= -I= -l= -m= -M= -p= -Q= -s= -S= -t= -T= -w= -W= -F= \
            -e=",
        )
        .capture_if("-c -w")
        .exec(),
    cmd("yes", "prints forever").exec(),
    cmd("sleep", "sleeps forever").exec_if("infinity inf"),
    cmd("tcpdump", "captures until interrupted")
        .opts(
            "-c= -r= -i= -w= -s= -C= -G= -W= -E= -F= -M= -T= -y= -z= -Z= \
            -B= -j=",
        )
        .capture_if("-c -r -D --list-interfaces --version -h --help")
        .exec(),
    cmd("tshark", "captures until interrupted")
        .opts("-c= -r= -i= -w= -a= -f= -Y= -T= -e= -o=")
        .capture_if("-c -r -a -D -G -v")
        .exec(),
    cmd("mtr", "full-screen traceroute")
        .opts("-c= -i= -s= -a= -f= -m= -P= -B=")
        .capture_if(
            "-r --report -w --report-wide -j --json -C --csv -x --xml -l \
            --raw",
        )
        .exec(),
    cmd("vmstat mpstat pidstat sar", "samples until interrupted")
        .opts("-S= -P= -p= -u= -f= -o=")
        .bare_capture()
        .batch_with(2)
        .exec(),
    cmd("iostat", "samples until interrupted")
        .bare_capture()
        .exec(),
    cmd("free", "samples until interrupted")
        .opts("-s= -c=")
        .exec_if("-s --seconds"),
    cmd("inotifywait", "monitors files").exec_if("-m --monitor"),
    cmd("fswatch", "monitors files")
        .capture_if("-1 --one-event")
        .exec(),
    cmd("iperf iperf3", "network test server")
        .opts("-p= -c= -t= -i= -B=")
        .exec_if("-s --server"),
    // --- Watch modes.
    cmd(
        "nodemon ts-node-dev tsnd watchexec entr reflex air modd \
            watchman-make cargo-watch bacon ptw pytest-watch pytest-watcher sphinx-autobuild",
        "watch mode",
    )
    .exec(),
    sub("cargo", "watch", "watch mode").exec(),
    cmd(
        "tsc babel rollup sass node-sass tailwindcss postcss mocha \
            ava",
        "watch mode",
    )
    .opts(
        "-p= --project= -c= --config= -o= --out-dir= -i= -r= \
            --require= --reporter=",
    )
    .exec_if("-w --watch"),
    cmd("webpack", "watch mode or dev server")
        .opts("-c= --config= --mode= --env= -o= --output-path= --entry=")
        .exec_if("-w --watch serve server s"),
    cmd("pytest py.test", "debugger on failure or looping")
        .opts("-k= -m= -p= -n= -c= -o= --rootdir=")
        .exec_if("--pdb --trace -f --looponfail"),
    cmd("jest", "watch mode").exec_if("--watch --watchAll"),
    cmd("vitest", "watch mode")
        .capture_if("run --run list --version -v -h --help")
        .exec(),
    cmd("karma", "watch mode")
        .capture_if("--single-run")
        .exec_if("start"),
    cmd("esbuild", "watch mode or server").exec_if("--watch --serve"),
    cmd("gradle gradlew", "continuous build or running program")
        .exec_if("-t --continuous bootRun run appRun jettyRun"),
    cmd("mvn mvnw", "running program").exec_if(
        "spring-boot:run jetty:run tomcat7:run tomcat:run quarkus:dev \
            exec:java liberty:dev",
    ),
    cmd("eleventy", "watch mode or dev server").exec_if("--serve --watch"),
    // --- Dev servers.
    cmd(
        "uvicorn gunicorn hypercorn daphne waitress-serve granian \
            http.server SimpleHTTPServer smtpd aiosmtpd live-server http-server serve json-server \
            lite-server webpack-dev-server webpack-serve rackup puma unicorn thin redis-server \
            mongod postgres mysqld memcached ngrok cloudflared gradio voila tensorboard \
            jupyter-notebook jupyter-lab jupyter-server jupyter-console jupyter-qtconsole pdb \
            ipdb rlwrap",
        "server or interactive program",
    )
    .exec(),
    cmd("vite", "dev server")
        .exec_if("-w --watch")
        .capture_if("build optimize --version -v -h --help")
        .exec(),
    cmd("parcel", "dev server")
        .exec_if("watch")
        .capture_if("build --version")
        .exec(),
    cmd("next nuxt nuxi astro remix", "dev server").exec_if("dev start preview"),
    cmd("ng", "dev server, test watcher or generator")
        .capture_if("--watch=false --no-watch --defaults")
        .exec_if("serve s test t --watch new n"),
    cmd("react-scripts", "dev server or test watcher").exec_if("start test"),
    cmd("expo react-native", "dev server").exec_if("start"),
    cmd("vue-cli-service", "dev server").exec_if("serve"),
    cmd("gatsby", "dev server").exec_if("develop serve"),
    cmd("docusaurus", "dev server").exec_if("start serve"),
    cmd("hexo", "dev server").exec_if("server s"),
    cmd("hugo", "dev server").exec_if("server serve -w --watch"),
    cmd("jekyll", "dev server").exec_if("serve s server"),
    cmd("mkdocs zola", "dev server").exec_if("serve"),
    // The server and the shell are rows of their own: `timeout` ends a server, not a shell.
    cmd("flask", "dev server or shell").opts("-A= --app= -e= --env-file="),
    sub("flask", "run", "dev server").exec(),
    sub("flask", "shell", "shell").exec(),
    cmd("manage.py django-admin django", "dev server or shell").opts("--settings= --pythonpath="),
    sub(
        "manage.py django-admin django",
        "runserver runserver_plus testserver",
        "dev server",
    )
    .exec(),
    sub(
        "manage.py django-admin django",
        "shell shell_plus dbshell",
        "shell",
    )
    .exec(),
    sub(
        "rails",
        "s server c console db dbconsole",
        "dev server or console",
    )
    .exec(),
    cmd("artisan", "dev server or shell").exec_if(
        "serve tinker queue:work queue:listen schedule:work horizon \
            reverb:start octane:start pail",
    ),
    cmd("symfony", "dev server").exec_if("serve server:start local:server:start"),
    cmd("mix", "running program").exec_if("phx.server"),
    cmd("streamlit panel bokeh", "app server").exec_if("run serve hello"),
    sub(
        "jupyter",
        "notebook lab console qtconsole server",
        "notebook server or console",
    )
    .exec(),
    cmd("mlflow", "server").exec_if("ui server"),
    cmd("celery", "worker").exec_if("worker beat flower events"),
    cmd("airflow", "server").exec_if("webserver scheduler standalone triggerer"),
    cmd("dagster", "dev server").exec_if("dev"),
    cmd("foreman overmind honcho", "Procfile runner").exec_if("start s"),
    cmd("dev", "Procfile runner (bin/dev)").exec(),
    cmd("wrangler netlify", "dev server, login or followed logs")
        .exec_if("dev tail login init link watch"),
    cmd("vercel", "asks before linking a project, or a dev server")
        .capture_if("-y --yes --version -v --help -h ls list whoami inspect build pull env")
        .exec(),
    cmd("sam", "local server").exec_if("start-api start-lambda"),
    cmd("serverless sls", "local server").exec_if("offline"),
    cmd("ionic", "dev server").exec_if("serve"),
    cmd("storybook", "dev server").exec_if("dev"),
    cmd("elm", "dev server or REPL").exec_if("reactor repl"),
    cmd("quarto", "preview server").exec_if("preview"),
    cmd("mdbook", "dev server").exec_if("serve watch"),
    sub("ollama", "run", "chat session without a prompt")
        .batch_with(2)
        .exec(),
    sub("ollama", "serve", "server").exec(),
    sub("heroku", "logs", "follows logs").exec_if("-t --tail"),
    sub("fly flyctl", "logs", "follows logs")
        .capture_if("--no-tail")
        .exec(),
    sub("fly flyctl", "ssh console", "remote session").exec(),
    cmd("caddy", "server").exec_if("run file-server reverse-proxy respond"),
    cmd("pydoc", "documentation server").exec_if("-b -p"),
    sub("pm2", "logs monit", "follows logs").exec(),
    sub("cargo", "run r", "runs a program lens cannot know").exec(),
    sub("cargo", "leptos", "dev server").exec_if("watch serve"),
    sub("cargo", "tauri", "dev server").exec_if("dev"),
    cmd("cargo", "").opts("+ -C= --color= --config= -Z= --manifest-path="),
    sub("go", "run", "runs a program lens cannot know").exec(),
    sub("dotnet", "run watch", "runs a program lens cannot know").exec(),
    // --- Package scripts: npm run NAME and friends. `<script>` is not a program: it is
    // what `npm run`, `yarn`, `pnpm` and `bun` hand the script name to.
    cmd("<script>", "dev server or watch script")
        .opts(SCRIPT_OPTS)
        .exec_if(
            "--watch --watchAll start dev serve server watch preview \
            develop storybook start:* dev:* serve:* watch:* *:watch *:dev *:serve *:start",
        ),
    cmd("npm", "").opts("-w= --workspace= --prefix= -C= --loglevel= --registry="),
    sub("npm", "start", "dev server or watch script").exec(),
    sub("npm", "run run-script rum urn test tst t", "").inner(As("<script>")),
    sub(
        "npm pnpm",
        "exec x dlx",
        "a command lens cannot see (or an interactive shell)",
    )
    .opts(
        "-y --yes --no -q --quiet --ignore-existing --prefer-offline \
            --prefer-online --offline --silent -w= --workspace= -p= --package= -c= --call= *=",
    )
    .inner(ShellValue("-c --call"))
    .inner(At(0))
    .exec(),
    sub("npm pnpm yarn", "init create innit", "prompts on stdout")
        .capture_if("-y --yes")
        .exec(),
    sub(
        "npm pnpm yarn",
        "login adduser add-user explore edit",
        "prompts or opens a shell",
    )
    .exec(),
    cmd("yarn pnpm", "").opts(SCRIPT_OPTS).inner(As("<script>")),
    sub("yarn pnpm", "run", "").inner(As("<script>")),
    sub("yarn", "dlx exec", WRAPPED)
        .opts("-p= --package= -q --quiet *=")
        .inner(At(0))
        .exec(),
    cmd("turbo nx lerna", "").inner(As("<script>")),
    cmd("bun", "watch mode")
        .opts(SCRIPT_OPTS)
        .exec_if("--watch --hot")
        .inner(As("<script>")),
    sub("bun", "run", "watch mode")
        .exec_if("--watch --hot")
        .inner(As("<script>")),
    sub("bun", "repl", "Bun REPL").exec(),
    sub("bun", "x", WRAPPED)
        .opts("--bun *=")
        .inner(At(0))
        .exec(),
    // --- Prompts written to stdout, which capture would hide.
    cmd("apt apt-get aptitude", "asks before changing packages")
        .opts("-o= -c= -t=")
        .capture_if(
            "-y --yes --assume-yes -s --simulate --dry-run --just-print \
            --no-act --recon -qq",
        )
        .exec_if(
            "install remove purge upgrade dist-upgrade full-upgrade \
            autoremove autopurge reinstall build-dep",
        ),
    cmd("dnf yum microdnf", "asks before changing packages")
        .capture_if("-y --assumeyes --assumeno --downloadonly")
        .exec_if(
            "install remove erase upgrade update downgrade reinstall \
            autoremove distro-sync swap groupinstall groupremove localinstall",
        ),
    cmd("pacman yay paru", "asks before changing packages")
        .capture_if("--noconfirm -p --print -Q -F")
        .exec_if("-S -R -U --sync --remove --upgrade"),
    cmd("zypper", "asks before changing packages")
        .capture_if("-n --non-interactive -y --no-confirm")
        .exec_if("install in remove rm update up dist-upgrade dup patch"),
    sub("pip", "uninstall", "asks before removing")
        .opts("-r= --requirement=")
        .capture_if("-y --yes")
        .exec(),
    cmd("conda mamba micromamba", "asks before changing packages")
        .opts("-n= --name= -p= --prefix= -c= --channel= -f= --file=")
        .capture_if("-y --yes --dry-run -d --json")
        .exec_if("install remove uninstall update upgrade create"),
    cmd("rm cp mv ln", "asks per file")
        .opts("-t= --target-directory= -S= --suffix=")
        .exec_if("-i -I --interactive"),
    cmd("passwd", "asks for a password")
        .capture_if(
            "-S --status -l --lock -u --unlock -d --delete -e --expire \
            --stdin",
        )
        .exec(),
    cmd("chsh chfn adduser newgrp login", "asks or opens a shell").exec(),
    cmd("ssh-keygen", "asks where to save the key")
        .opts(
            "-b= -C= -f= -N= -t= -F= -R= -Z= -a= -O= -n= -I= -V= -z= -E= \
            -m=",
        )
        .capture_if("-l -F -R -y -Y -L -D -Q -r")
        .exec(),
    cmd("gpg gpg2", "asks interactively").exec_if(
        "--gen-key --generate-key --full-gen-key --full-generate-key \
            --edit-key --card-edit --edit-card --change-pin",
    ),
    cmd("terraform tofu", "").opts("-word -chdir="),
    sub("terraform tofu", "apply destroy", "asks for approval")
        .opts(
            "-word -var= -var-file= -target= -replace= -lock-timeout= \
            -parallelism= -state= -state-out= -backup=",
        )
        .capture_if("-auto-approve --auto-approve")
        .batch_with(1)
        .exec(),
    sub("terraform tofu", "console login", "REPL or browser login").exec(),
    sub("pulumi", "up destroy refresh", "asks for approval")
        .capture_if("-y --yes --non-interactive --skip-preview")
        .exec(),
    sub("pulumi", "watch", "watch mode").exec(),
    sub("aws", "configure", "prompts on stdout")
        .capture_if("get set list list-profiles export-credentials import")
        .exec(),
    sub(
        "aws",
        "sso ssm logs",
        "browser login, session or followed logs",
    )
    .exec_if("login start-session --follow"),
    sub("gcloud", "init", "prompts on stdout").exec(),
    sub("gcloud", "auth", "browser login").exec_if("login"),
    sub("gcloud", "compute", "remote session")
        .capture_if("--command")
        .exec_if("ssh"),
    sub("az", "login ssh", "browser login or remote session").exec(),
    sub("gh", "auth run", "browser login or watched run").exec_if("login refresh watch"),
    sub(
        "firebase",
        "login init serve emulators:start",
        "browser login or server",
    )
    .exec(),
    sub("cargo", "generate", "asks for the template's values").exec(),
    cmd(
        "create-* cookiecutter copier",
        "project generator asks on stdout",
    )
    .capture_if("-y --yes --no-input --defaults --version -V --help -h")
    .exec(),
    sub("poetry composer", "init", "asks on stdout")
        .capture_if("-n --no-interaction")
        .exec(),
    sub("bun", "create init", "asks on stdout")
        .capture_if("-y --yes")
        .exec(),
    cmd("vue", "project generator or UI server").exec_if("create ui serve"),
    cmd("eslint", "asks on stdout").exec_if("--init"),
    sub("flutter", "run attach", "hot-reload session").exec(),
    cmd("ansible-playbook", "asks per task").exec_if("--step"),
    sub("cargo", "login", "reads a token from the terminal")
        .batch_with(1)
        .exec(),
    cmd("xargs", "opens the terminal for each command")
        .opts(
            "-0 -r -t -x -p -o --null --no-run-if-empty --verbose --exit \
            --interactive --open-tty -d= -E= -I= -L= -n= -P= -s= -a= --delimiter= --max-args= \
            --max-procs= --arg-file= -i: -l: -e: *=",
        )
        .exec_if("-p -o --interactive --open-tty")
        .inner(At(0)),
    cmd("make gmake just task", "dev server or watch target")
        .opts("-C= -f= -j: -l: -o= -W= -I=")
        .exec_if("dev serve server watch start run"),
    cmd("fdisk", "partition editor")
        .opts("-b= -u: -L: -t=")
        .capture_if("-l --list -s --getsz -v --version -h --help")
        .exec(),
    cmd("gdisk", "partition editor").capture_if("-l").exec(),
    cmd("parted", "partition editor")
        .capture_if("-s --script -l --list -v --version -h --help")
        .batch_with(2)
        .exec(),
    cmd("fsck e2fsck", "asks per repair")
        .opts("-t= -C: -b= -B= -j= -l= -L= -E=")
        .capture_if("-y -n -p -a -N")
        .exec(),
    cmd("certbot", "asks on stdout")
        .capture_if(
            "-n --non-interactive --noninteractive renew certificates \
            --version -h --help",
        )
        .exec(),
    sub("openssl", "req", "asks for the certificate subject")
        .capture_if("-subj -batch -in")
        .exec_if("-new -newkey -x509"),
    cmd("rustup-init", "asks before installing")
        .capture_if("-y")
        .exec(),
    cmd("find", "asks per file").exec_if("-ok -okdir"),
    // --- Debuggers and tracers.
    cmd("gdb cgdb", "debugger")
        .capture_if("--batch -batch --version -v --help")
        .exec(),
    cmd("lldb", "debugger")
        .capture_if("--batch -b --version -v -h --help")
        .exec(),
    cmd("strace ltrace", "traces a process until interrupted")
        .opts(
            "-f -ff -c -C -d -D -h -i -k -q -qq -r -t -tt -ttt -T -v -V \
            -w -x -xx -y -yy -z -Z -n *=",
        )
        .inner(At(0))
        .exec(),
    cmd("valgrind", WRAPPED)
        .opts("-v -q -h --help --version")
        .inner(At(0))
        .exec(),
    sub("perf", "top", "full-screen monitor").exec(),
    // --- Wrappers: the wrapped command decides. With nothing wrapped, most open a shell.
    cmd("env", WRAPPED)
        .opts(
            "-i -0 -v --ignore-environment --null --debug -u= --unset= \
            -C= --chdir= -S= --split-string= --default-signal: --ignore-signal: --block-signal: \
            *=",
        )
        .inner(ShellValue("-S --split-string"))
        .inner(At(0))
        .exec(),
    cmd("sudo", "root shell or editor")
        .opts(
            "-A -b -E -H -K -k -n -P -S -V -v -l -h -i -s -e --askpass \
            --background --preserve-env --set-home --remove-timestamp --reset-timestamp \
            --non-interactive --preserve-groups --stdin --version --validate --list --help \
            --login --shell --edit -u= -g= -C= -D= -p= -r= -t= -T= -U= -R= --user= --group= \
            --chdir= --prompt= --chroot= --close-from= --role= --type= --command-timeout= \
            --other-user= *=",
        )
        .exec_if("-e --edit")
        .capture_if("-l --list -v --validate -V --version -K --remove-timestamp")
        .inner(At(0))
        .exec(),
    cmd("doas", "root shell")
        .opts("-n -s -L -C= -u= *=")
        .inner(At(0))
        .exec(),
    cmd("pkexec", "root shell")
        .opts("--disable-internal-agent --keep-cwd --user= *=")
        .inner(At(0))
        .exec(),
    cmd("su runuser", "shell")
        .opts(
            "- -l -m -p -P --login --preserve-environment --pty -c= \
            --command= -s= --shell= -g= -G= --group= --supp-group= -w= --whitelist-environment= *",
        )
        .inner(ShellValue("-c --command"))
        .exec(),
    cmd("nice", WRAPPED)
        .opts(
            "-n= --adjustment= -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 --help \
            --version *=",
        )
        .inner(At(0))
        .exec(),
    cmd("nohup catchsegv dbus-run-session unbuffer", WRAPPED)
        .opts("-p *=")
        .inner(At(0))
        .exec(),
    cmd("time", WRAPPED)
        .opts(
            "-p -v -a -q --portability --verbose --append --quiet --help \
            -V --version -f= -o= --format= --output= *=",
        )
        .inner(At(0))
        .exec(),
    cmd("timeout", WRAPPED)
        .opts(
            "--foreground --preserve-status -v --verbose --help --version \
            -s= -k= --signal= --kill-after= *=",
        )
        .inner(At(1))
        .exec(),
    cmd("stdbuf", WRAPPED)
        .opts("-i= -o= -e= --input= --output= --error= *=")
        .inner(At(0))
        .exec(),
    cmd("ionice", WRAPPED)
        .opts(
            "-c= -n= -p= -P= -u= -t --class= --classdata= --pid= --pgid= \
            --uid= --ignore *=",
        )
        .inner(At(0))
        .exec(),
    cmd("chrt", WRAPPED)
        .opts(
            "-a -b -d -f -i -o -r -m -p -R -v --all-tasks --batch \
            --deadline --fifo --idle --other --rr --max --pid --reset-on-fork --verbose *=",
        )
        .inner(At(1))
        .exec(),
    cmd("taskset", WRAPPED)
        .opts("-a -p -c --all-tasks --pid --cpu-list *=")
        .inner(At(1))
        .exec(),
    cmd("setsid", WRAPPED)
        .opts("-c -f -w --ctty --fork --wait *=")
        .inner(At(0))
        .exec(),
    cmd("flock", WRAPPED)
        .opts(
            "-s -x -u -n -o -e --shared --exclusive --unlock --nonblock \
            --close --no-fork -E= -w= -c= --command= --timeout= --conflict-exit-code= *",
        )
        .inner(ShellValue("-c --command"))
        .inner(At(1))
        .exec(),
    cmd("xvfb-run", WRAPPED)
        .opts("-a --auto-servernum -e= -f= -n= -l -p= -s= -w= *=")
        .inner(At(0))
        .exec(),
    cmd("chroot", "shell")
        .opts("--userspec= --groups= --skip-chdir *=")
        .inner(At(1))
        .exec(),
    cmd("nsenter unshare", "shell")
        .opts("-t= --target= -S= -G= -w= -r= *")
        .inner(At(0))
        .exec(),
    cmd("gosu su-exec", "shell").inner(At(1)).exec(),
    cmd("systemd-run", "unit with a terminal")
        .opts(
            "-u= --unit= -p= --property= --description= --slice= -E= \
            --setenv= -M= --machine= *",
        )
        .exec_if("-t --pty -S --shell")
        .inner(At(0)),
    cmd(
        "npx pnpx bunx",
        "a command lens cannot see (or an interactive shell)",
    )
    .opts(
        "-y --yes --no -q --quiet --ignore-existing --prefer-offline \
            --prefer-online --offline --silent -p= --package= -c= --call= -w= --workspace= *=",
    )
    .inner(ShellValue("-c --call"))
    .inner(At(0))
    .exec(),
    cmd("uvx", WRAPPED)
        .opts(
            "--from= --with= --with-requirements= -p= --python= --index= \
            --isolated -q -v --quiet --verbose --offline --no-cache *=",
        )
        .inner(At(0))
        .exec(),
    sub("uv", "run", "Python REPL")
        .opts(
            "--no-sync --frozen --locked --isolated --no-project --no-dev \
            --all-extras --all-packages --all-groups --active --no-active --script --exact \
            --offline -q -v --quiet --verbose --no-cache --no-config --only-dev \
            --no-default-groups --no-editable --gui-script -m= --module= *=",
        )
        .inner(Value("-m --module"))
        .inner(At(0))
        .exec(),
    sub("pipx", "run", WRAPPED)
        .opts("--spec= --python= --pip-args= --no-cache --verbose *=")
        .inner(At(0))
        .exec(),
    sub("poetry pipenv hatch pdm rye", "run", WRAPPED)
        .opts("-C= --directory= -P= --project= -e= --env= *=")
        .inner(At(0))
        .exec(),
    sub("poetry pipenv hatch pdm", "shell", "shell").exec(),
    sub("conda mamba micromamba", "run", WRAPPED)
        .opts(
            "-n= --name= -p= --prefix= --cwd= --live-stream \
            --no-capture-output -v --verbose *=",
        )
        .inner(At(0))
        .exec(),
    sub("bundle bundler", "exec", WRAPPED).inner(At(0)).exec(),
    sub("bundle bundler", "console open", "REPL or editor").exec(),
    sub("rbenv pyenv nodenv goenv asdf mise rtx", "exec x", WRAPPED)
        .opts("--")
        .inner(At(0))
        .exec(),
    sub("direnv aws-vault", "exec", "shell").inner(At(1)).exec(),
    sub("op doppler infisical", "run", WRAPPED)
        .opts("--env-file= --command= --project= --config= *")
        .inner(ShellValue("--command"))
        .inner(At(0))
        .exec(),
    cmd("nix-shell", "shell")
        .opts("-p= --packages= -A= --attr= -I= --run= --command= *")
        .inner(ShellValue("--run --command"))
        .exec(),
    sub("nix", "develop shell", "shell")
        .opts("-c= --command= *")
        .inner(Value("-c --command"))
        .exec(),
    sub("nix", "repl run", "REPL or a program lens cannot know").exec(),
];

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::interactive::{Mode, Outcome, mode};
    use std::cell::RefCell;
    use std::ffi::OsString;

    const EXEC: bool = true;
    const CAPTURE: bool = false;

    thread_local! {
        static VISITED: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    }

    /// Record that `row` decided (or helped decide) a case, for the coverage test.
    pub(in crate::interactive) fn visit(row: &'static Row) {
        let index = TABLE.iter().position(|r| std::ptr::eq(r, row));
        VISITED.with(|v| v.borrow_mut().extend(index));
    }

    /// Split a command line on spaces; '…' quotes one argument.
    pub(in crate::interactive) fn argv(line: &str) -> Vec<OsString> {
        let mut words = Vec::new();
        let mut rest = line.trim();
        while !rest.is_empty() {
            let (word, next) = match rest.strip_prefix('\'') {
                Some(quoted) => quoted.split_once('\'').expect("closed quote"),
                None => rest.split_once(' ').unwrap_or((rest, "")),
            };
            words.push(OsString::from(word));
            rest = next.trim_start();
        }
        words
    }

    /// One assertion per case: `line` must be exec'd (true) or captured (false).
    fn check(cases: &[(&str, bool)]) {
        for &(line, exec) in cases {
            let got = mode(&argv(line));
            assert_eq!(
                matches!(got, Mode::Exec(_)),
                exec,
                "`{line}` should be {}, got {got:?}",
                if exec { "exec'd" } else { "captured" }
            );
        }
    }

    const REPLS: &[(&str, bool)] = &[
        ("python", EXEC),
        ("python3", EXEC),
        ("/usr/bin/python3.12", EXEC),
        ("python -i script.py", EXEC),
        ("python -W ignore", EXEC),
        ("python -ic 'import x'", EXEC),
        ("python -u script.py", CAPTURE),
        ("python script.py -i", CAPTURE),
        ("python -c 'print(1)'", CAPTURE),
        ("python --version", CAPTURE),
        ("python -m pytest -x -i", CAPTURE),
        ("python -m http.server 8000", EXEC),
        ("python -mhttp.server", EXEC),
        ("python manage.py runserver", EXEC),
        ("python manage.py migrate", CAPTURE),
        ("pypy3", EXEC),
        ("ipython", EXEC),
        ("ipython script.py", CAPTURE),
        ("ipython -i script.py", EXEC),
        ("bpython", EXEC),
        ("node", EXEC),
        ("node -i", EXEC),
        ("node server.js", CAPTURE),
        ("node --watch server.js", EXEC),
        ("node -e 'console.log(1)'", CAPTURE),
        ("node -r ts-node/register", EXEC),
        ("node --version", CAPTURE),
        ("node --inspect-brk app.js", EXEC),
        ("node --inspect app.js", CAPTURE),
        ("ts-node", EXEC),
        ("tsx", EXEC),
        ("tsx script.ts", CAPTURE),
        ("tsx watch script.ts", EXEC),
        ("deno", EXEC),
        ("deno fmt", CAPTURE),
        ("deno repl", EXEC),
        ("deno run main.ts", CAPTURE),
        ("deno run --watch main.ts", EXEC),
        ("deno task dev", EXEC),
        ("deno task build", CAPTURE),
        ("irb", EXEC),
        ("irb --version", CAPTURE),
        ("ruby", EXEC),
        ("ruby script.rb", CAPTURE),
        ("ruby -e 'puts 1'", CAPTURE),
        ("perl", EXEC),
        ("perl -de0", EXEC),
        ("perl -lne 'print' file", CAPTURE),
        ("perl script.pl", CAPTURE),
        ("php", EXEC),
        ("php -a", EXEC),
        ("php -r 'echo 1;'", CAPTURE),
        ("php script.php", CAPTURE),
        ("php artisan serve", EXEC),
        ("php artisan migrate", CAPTURE),
        ("lua", EXEC),
        ("lua5.4 script.lua", CAPTURE),
        ("lua -i script.lua", EXEC),
        ("luajit -e 'print(1)'", CAPTURE),
        ("R", EXEC),
        ("R -f analysis.R", CAPTURE),
        ("R CMD build pkg", CAPTURE),
        ("julia", EXEC),
        ("julia -t 4 script.jl", CAPTURE),
        ("julia -e 'println(1)'", CAPTURE),
        ("erl", EXEC),
        ("erl -noshell -s init stop", CAPTURE),
        ("iex", EXEC),
        ("iex -S mix", EXEC),
        ("iex -e 'IO.puts 1'", CAPTURE),
        ("ghci", EXEC),
        ("ghci -e 'print 1'", CAPTURE),
        ("ghc --interactive", EXEC),
        ("ghc Main.hs", CAPTURE),
        ("stack ghci", EXEC),
        ("cabal repl", EXEC),
        ("cabal build", CAPTURE),
        ("lein repl", EXEC),
        ("lein test", CAPTURE),
        ("clj", EXEC),
        ("sbt", EXEC),
        ("sbt compile", CAPTURE),
        ("sbt ~compile", EXEC),
        ("scala", EXEC),
        ("scala Main.scala", CAPTURE),
        ("racket -i", EXEC),
        ("ocaml", EXEC),
        ("octave --eval '1+1'", CAPTURE),
        ("qalc 1+1", CAPTURE),
        ("guile", EXEC),
        ("guile -c '(display 1)'", CAPTURE),
        ("sbcl", EXEC),
        ("sbcl --script run.lisp", CAPTURE),
        ("swipl", EXEC),
        ("swipl -g main -t halt main.pl", CAPTURE),
        ("maxima", EXEC),
        ("maxima --batch run.mac", CAPTURE),
        ("matlab", EXEC),
        ("matlab -batch run", CAPTURE),
        ("gnuplot", EXEC),
        ("gnuplot plot.gp", CAPTURE),
        ("bc", EXEC),
        ("mongosh", EXEC),
        ("mongosh --eval 'db.stats()'", CAPTURE),
        ("mongosh --eval 'x' --shell", EXEC),
    ];

    #[test]
    fn repls_without_a_script_keep_the_terminal() {
        check(REPLS);
    }

    const SHELLS: &[(&str, bool)] = &[
        ("bash", EXEC),
        ("sh", EXEC),
        ("zsh -l", EXEC),
        ("fish", EXEC),
        ("dash -i -c 'echo hi'", EXEC),
        ("bash -s arg", EXEC),
        ("bash script.sh", CAPTURE),
        ("bash -x script.sh", CAPTURE),
        ("bash -o pipefail -c 'make | tee log'", CAPTURE),
        ("sh -c 'cargo build && cargo test'", CAPTURE),
        ("sh -ec 'tail -f app.log'", EXEC),
        ("bash -lc 'cd web && npm run dev'", EXEC),
        ("sh -c 'vim notes.txt'", EXEC),
        ("sh -c '$EDITOR notes.txt'", EXEC),
        ("sh -c 'make 2>&1 | grep error'", CAPTURE),
        ("sh -c 'FOO=1 less README'", EXEC),
        ("sh -c 'for f in *.md; do vim $f; done'", EXEC),
        // Quotes are read as sh reads them: a quoted `;` or `(` starts no command.
        ("sh -c 'grep -n \"a; vim x\" notes'", CAPTURE),
        ("sh -c 'echo \"(\" && vim x'", EXEC),
        ("sh -c 'echo \"$(less x)\"'", EXEC),
        // A heredoc is not read; every piece of it is still classified.
        ("sh -c 'cat <<EOF\nx\nEOF\nvim y'", EXEC),
        ("zsh -c 'echo hi'", CAPTURE),
        ("bash --version", CAPTURE),
        ("pwsh", EXEC),
        ("pwsh -NoProfile", EXEC),
        ("pwsh -Command Get-Date", CAPTURE),
        ("busybox sh", EXEC),
        ("busybox ls", CAPTURE),
        ("script", EXEC),
        ("script -qec 'make test' /dev/null", CAPTURE),
        ("script -qec 'top' /dev/null", EXEC),
    ];

    #[test]
    fn shells_without_a_command_keep_the_terminal_and_scripts_are_read() {
        check(SHELLS);
    }

    const DATABASES: &[(&str, bool)] = &[
        ("psql", EXEC),
        ("psql -h localhost -U me mydb", EXEC),
        ("psql -c 'select 1' mydb", CAPTURE),
        ("psql -f schema.sql", CAPTURE),
        ("mysql -u root", EXEC),
        ("mysql -psecret", EXEC),
        ("mysql -psecret -e 'select 1'", CAPTURE),
        ("mariadb --execute='select 1'", CAPTURE),
        ("sqlite3 app.db", EXEC),
        ("sqlite3 -cmd '.mode csv' app.db", EXEC),
        ("sqlite3 app.db 'select 1'", CAPTURE),
        ("duckdb", EXEC),
        ("duckdb -c 'select 1'", CAPTURE),
        ("redis-cli", EXEC),
        ("redis-cli -h cache ping", CAPTURE),
        ("redis-cli -n 1 MONITOR", EXEC),
        ("redis-cli --stat", EXEC),
        ("cqlsh", EXEC),
        ("cqlsh -e 'describe keyspaces'", CAPTURE),
        ("clickhouse-client", EXEC),
        ("clickhouse-client -q 'select 1'", CAPTURE),
        ("usql pg://db", EXEC),
        ("usql -c 'select 1' pg://db", CAPTURE),
        ("pgcli", EXEC),
        ("mycli -e 'select 1'", CAPTURE),
    ];

    #[test]
    fn database_clients_without_a_command_keep_the_terminal() {
        check(DATABASES);
    }

    const EDITORS_PAGERS_SCREENS: &[(&str, bool)] = &[
        ("vim notes.txt", EXEC),
        ("/usr/bin/vim", EXEC),
        ("nvim", EXEC),
        ("vi -R file", EXEC),
        ("vim -es -c 'wq' file", CAPTURE),
        ("nvim --headless +q", CAPTURE),
        ("vim --version", CAPTURE),
        ("nano file", EXEC),
        ("micro", EXEC),
        ("hx .", EXEC),
        ("kak file", EXEC),
        ("emacs -nw", EXEC),
        ("emacs --batch -l build.el", CAPTURE),
        ("emacs -batch -l build.el", CAPTURE),
        ("emacsclient -t file", EXEC),
        ("emacsclient -n file", CAPTURE),
        ("code file", CAPTURE),
        ("code --wait file", EXEC),
        ("crontab -e", EXEC),
        ("crontab -l", CAPTURE),
        ("systemctl edit nginx", EXEC),
        ("systemctl status nginx", CAPTURE),
        ("less README.md", EXEC),
        ("more file", EXEC),
        ("most file", EXEC),
        ("man ls", EXEC),
        ("man -k printf", CAPTURE),
        ("info coreutils", EXEC),
        ("w3m https://example.com", EXEC),
        ("lynx -dump https://example.com", CAPTURE),
        ("top", EXEC),
        ("top -b", EXEC),
        ("top -bn1", CAPTURE),
        ("htop", EXEC),
        ("btop", EXEC),
        ("iotop", EXEC),
        ("iotop -b -n 1", CAPTURE),
        ("watch -n 1 date", EXEC),
        ("tmux", EXEC),
        ("tmux attach -t main", EXEC),
        ("tmux ls", CAPTURE),
        ("screen", EXEC),
        ("screen -ls", CAPTURE),
        ("zellij", EXEC),
        ("fzf", EXEC),
        ("fzf --filter foo", CAPTURE),
        ("gum choose a b", EXEC),
        ("tig", EXEC),
        ("lazygit", EXEC),
        ("ncdu /", EXEC),
        ("ranger", EXEC),
        ("mc", EXEC),
    ];

    #[test]
    fn editors_pagers_and_full_screen_programs_keep_the_terminal() {
        check(EDITORS_PAGERS_SCREENS);
    }

    const GIT: &[(&str, bool)] = &[
        ("git add -p", EXEC),
        ("git add --patch src", EXEC),
        ("git add -i", EXEC),
        ("git add --interactive", EXEC),
        ("git add -e", EXEC),
        ("git add .", CAPTURE),
        ("git add -A", CAPTURE),
        ("git commit", EXEC),
        ("git commit -a", EXEC),
        ("git commit --amend", EXEC),
        ("git commit --squash HEAD", EXEC),
        ("git commit -m 'fix'", CAPTURE),
        ("git commit -am 'fix'", CAPTURE),
        ("git commit -F msg.txt", CAPTURE),
        ("git commit -C HEAD", CAPTURE),
        ("git commit --amend --no-edit", CAPTURE),
        ("git commit --fixup HEAD", CAPTURE),
        ("git commit --fixup=amend:HEAD", EXEC),
        ("git commit --fixup amend:HEAD", EXEC),
        ("git commit -c HEAD", EXEC),
        ("git commit -e -m 'draft'", EXEC),
        ("git commit -p -m 'part'", EXEC),
        ("git commit --dry-run", CAPTURE),
        ("git -c core.editor=true commit", EXEC),
        ("git rebase -i HEAD~3", EXEC),
        ("git rebase --interactive main", EXEC),
        ("git rebase --continue", EXEC),
        ("git rebase --edit-todo", EXEC),
        ("git rebase main", CAPTURE),
        ("git rebase --abort", CAPTURE),
        ("git rebase -x 'make -i' main", CAPTURE),
        ("git merge feature", EXEC),
        ("git merge -m 'merge' feature", EXEC),
        ("git merge --no-edit feature", CAPTURE),
        ("git merge --ff-only feature", CAPTURE),
        ("git merge --abort", CAPTURE),
        ("git pull", EXEC),
        ("git pull --no-rebase", EXEC),
        ("git pull --rebase", CAPTURE),
        ("git pull --rebase=interactive", EXEC),
        ("git pull --ff-only", CAPTURE),
        ("git revert HEAD", EXEC),
        ("git revert --no-edit HEAD", CAPTURE),
        ("git revert -n HEAD", CAPTURE),
        ("git cherry-pick abc123", CAPTURE),
        ("git cherry-pick -e abc123", EXEC),
        ("git cherry-pick --continue", EXEC),
        ("git tag v1", CAPTURE),
        ("git tag -a v1", EXEC),
        ("git tag -s v1", EXEC),
        ("git tag -a v1 -m 'release'", CAPTURE),
        ("git tag -l", CAPTURE),
        ("git notes", CAPTURE),
        ("git notes add", EXEC),
        ("git notes add -m 'note'", CAPTURE),
        ("git notes edit", EXEC),
        ("git stash", CAPTURE),
        ("git stash -p", EXEC),
        ("git stash push --patch", EXEC),
        ("git stash show -p", CAPTURE),
        ("git checkout -p", EXEC),
        ("git checkout -b topic", CAPTURE),
        ("git restore --patch file", EXEC),
        ("git reset -p", EXEC),
        ("git reset --hard HEAD", CAPTURE),
        ("git am -i", EXEC),
        ("git am patch.mbox", CAPTURE),
        ("git clean -i", EXEC),
        ("git clean -fdi", EXEC),
        ("git clean -fd", CAPTURE),
        ("git config -e", EXEC),
        ("git config user.name", CAPTURE),
        ("git branch --edit-description", EXEC),
        ("git branch -a", CAPTURE),
        ("git grep -O foo", EXEC),
        ("git grep -e foo", CAPTURE),
        ("git replace --edit HEAD", EXEC),
        ("git mergetool", EXEC),
        ("git difftool", EXEC),
        ("git send-email outgoing/", EXEC),
        ("git co main", EXEC),
        ("git", CAPTURE),
        ("git --version", CAPTURE),
        ("git log -p", CAPTURE),
        ("git log --follow file", CAPTURE),
        ("git diff", CAPTURE),
        ("git show HEAD", CAPTURE),
        ("git -C repo status", CAPTURE),
        ("git --no-pager log", CAPTURE),
    ];

    #[test]
    fn git_reads_the_subcommand_and_its_flags() {
        check(GIT);
    }

    const REMOTE: &[(&str, bool)] = &[
        ("ssh host", EXEC),
        ("ssh -p 2222 user@host", EXEC),
        ("ssh host -p 2222", EXEC),
        ("ssh -i key -o BatchMode=yes host", EXEC),
        ("ssh host uname -a", CAPTURE),
        ("ssh -p 2222 host ls -l", CAPTURE),
        ("ssh -oBatchMode=yes host uname", CAPTURE),
        ("ssh -t host top", EXEC),
        ("ssh host 'tail -f /var/log/syslog'", EXEC),
        ("ssh -N -L 8080:localhost:80 host", EXEC),
        ("ssh -V", CAPTURE),
        ("mosh host", EXEC),
        ("telnet host 25", EXEC),
        ("sftp host", EXEC),
        ("sftp -b batch host", CAPTURE),
        ("lftp host", EXEC),
        ("lftp -c 'get file' host", CAPTURE),
        ("nc host 80", EXEC),
        ("nc -l 8080", EXEC),
        ("nc -z host 80", CAPTURE),
        ("socat - TCP:host:80", EXEC),
        ("openssl s_client -connect host:443", EXEC),
        ("openssl rand -hex 8", CAPTURE),
        ("vagrant ssh", EXEC),
        ("vagrant ssh -c uptime", CAPTURE),
    ];

    #[test]
    fn remote_sessions_without_a_command_keep_the_terminal() {
        check(REMOTE);
    }

    const CONTAINERS: &[(&str, bool)] = &[
        ("docker run -it ubuntu bash", EXEC),
        ("docker run -i alpine cat", EXEC),
        ("docker run -t alpine ls", EXEC),
        ("docker run --interactive --tty alpine", EXEC),
        ("docker run --rm -e A=1 -v /x:/y alpine echo hi", CAPTURE),
        ("docker run -d nginx", CAPTURE),
        ("docker run -dit ubuntu", CAPTURE),
        ("docker run -p 8080:80 nginx", EXEC),
        ("docker run --rm alpine ls -t", CAPTURE),
        ("docker run --rm alpine vim", EXEC),
        ("podman run -it fedora", EXEC),
        ("docker exec -it web sh", EXEC),
        ("docker exec web ls /", CAPTURE),
        ("docker exec web tail -f /var/log/app.log", EXEC),
        ("docker container run -it ubuntu", EXEC),
        ("docker container ls", CAPTURE),
        ("docker start -ai web", EXEC),
        ("docker start web", CAPTURE),
        ("docker attach web", EXEC),
        ("docker events", EXEC),
        ("docker logs web", CAPTURE),
        ("docker logs -f web", EXEC),
        ("docker stats", EXEC),
        ("docker stats --no-stream", CAPTURE),
        ("docker login", EXEC),
        ("docker login --password-stdin -u me", CAPTURE),
        ("docker ps", CAPTURE),
        ("docker build .", CAPTURE),
        ("docker system prune", EXEC),
        ("docker system prune -af", CAPTURE),
        ("docker image prune --force", CAPTURE),
        ("docker volume ls", CAPTURE),
        ("docker container prune", EXEC),
        ("docker container prune -f", CAPTURE),
        ("docker compose up", EXEC),
        ("docker compose -f dev.yml up -d", CAPTURE),
        ("docker-compose up --wait", CAPTURE),
        ("docker compose logs -f", EXEC),
        ("docker compose logs web", CAPTURE),
        ("docker compose run web", EXEC),
        ("docker compose run --rm web pytest", CAPTURE),
        ("docker compose exec web bash", EXEC),
        ("docker compose watch", EXEC),
        ("docker compose stats --no-stream", CAPTURE),
        ("docker compose ps", CAPTURE),
        ("kubectl exec -it pod -- sh", EXEC),
        ("kubectl -n prod exec -it pod -- bash", EXEC),
        ("kubectl exec pod -- ls -t", CAPTURE),
        ("kubectl run tmp -it --image=busybox", EXEC),
        ("kubectl run web --image=nginx", CAPTURE),
        ("kubectl attach pod", EXEC),
        ("kubectl port-forward svc/web 8080:80", EXEC),
        ("kubectl edit deploy/web", EXEC),
        ("kubectl logs -f pod", EXEC),
        ("kubectl logs pod", CAPTURE),
        ("kubectl get pods -w", EXEC),
        ("kubectl get pods", CAPTURE),
        ("kubectl version", CAPTURE),
        ("kubectl create --edit -f x.yaml", EXEC),
        ("kubectl apply -f x.yaml", CAPTURE),
        ("minikube dashboard", EXEC),
        ("minikube status", CAPTURE),
        ("skaffold dev", EXEC),
        ("tilt up", EXEC),
        ("stern web", EXEC),
        ("multitail a.log b.log", EXEC),
        ("lxc shell box", EXEC),
        ("lxc exec box -- bash", EXEC),
        ("lxc exec box -- ls", CAPTURE),
        ("multipass shell", EXEC),
        ("toolbox enter", EXEC),
        ("virsh console vm", EXEC),
        ("machinectl shell box", EXEC),
    ];

    #[test]
    fn containers_with_a_terminal_keep_it() {
        check(CONTAINERS);
    }

    const NEVER_ENDING: &[(&str, bool)] = &[
        ("tail -f app.log", EXEC),
        ("tail -F app.log", EXEC),
        ("tail --follow=name app.log", EXEC),
        ("tail -n 5 -f app.log", EXEC),
        ("tail -fn 100 app.log", EXEC),
        ("tail app.log", CAPTURE),
        ("tail -n 100 app.log", CAPTURE),
        ("journalctl -u nginx -f", EXEC),
        ("journalctl -u nginx", CAPTURE),
        ("dmesg -w", EXEC),
        ("dmesg", CAPTURE),
        ("ping example.com", EXEC),
        ("ping -c 3 example.com", CAPTURE),
        ("ping -qc3 example.com", CAPTURE),
        ("ping -w 5 example.com", CAPTURE),
        ("yes", EXEC),
        ("sleep infinity", EXEC),
        ("sleep 1", CAPTURE),
        ("tcpdump -i eth0", EXEC),
        ("tcpdump -c 10 -i eth0", CAPTURE),
        ("tshark", EXEC),
        ("tshark -r cap.pcap", CAPTURE),
        ("mtr host", EXEC),
        ("mtr -r host", CAPTURE),
        ("vmstat 1", EXEC),
        ("vmstat 1 5", CAPTURE),
        ("vmstat", CAPTURE),
        ("iostat 1", EXEC),
        ("iostat", CAPTURE),
        ("free -s 1", EXEC),
        ("free -h", CAPTURE),
        ("inotifywait -m dir", EXEC),
        ("inotifywait dir", CAPTURE),
        ("fswatch src", EXEC),
        ("fswatch -1 src", CAPTURE),
        ("iperf3 -s", EXEC),
        ("iperf3 -c host", CAPTURE),
    ];

    #[test]
    fn commands_that_never_end_keep_the_terminal() {
        check(NEVER_ENDING);
    }

    const WATCH_MODES: &[(&str, bool)] = &[
        ("tsc --watch", EXEC),
        ("tsc -w -p tsconfig.json", EXEC),
        ("tsc -p tsconfig.json", CAPTURE),
        ("jest --watch", EXEC),
        ("jest --watchAll", EXEC),
        ("jest", CAPTURE),
        ("pytest --pdb", EXEC),
        ("python -m pytest --trace", EXEC),
        ("pytest -n 4 tests", CAPTURE),
        ("vitest", EXEC),
        ("vitest run", CAPTURE),
        ("vitest --run", CAPTURE),
        ("cargo watch -x test", EXEC),
        ("cargo-watch -x test", EXEC),
        ("nodemon server.js", EXEC),
        ("webpack --watch", EXEC),
        ("webpack serve", EXEC),
        ("webpack --mode production", CAPTURE),
        ("rollup -w -c", EXEC),
        ("rollup -c", CAPTURE),
        ("sass --watch src:dist", EXEC),
        ("sass src/a.scss dist/a.css", CAPTURE),
        ("mocha -w", EXEC),
        ("karma start", EXEC),
        ("karma start --single-run", CAPTURE),
        ("esbuild app.ts --watch", EXEC),
        ("esbuild app.ts --bundle", CAPTURE),
        ("gradle -t build", EXEC),
        ("./gradlew bootRun", EXEC),
        ("./gradlew build", CAPTURE),
        ("mvn spring-boot:run", EXEC),
        ("mvn package", CAPTURE),
        ("eleventy --serve", EXEC),
        ("watchexec -e rs cargo test", EXEC),
        ("entr make", EXEC),
        ("bacon", EXEC),
        ("ptw", EXEC),
        ("mytool --watch", EXEC),
        ("mytool --watch-paths src", CAPTURE),
        ("deno test --watch", EXEC),
        ("python tools/build.py --watch", EXEC),
        ("kubectl rollout status deploy/web --watch=false", CAPTURE),
    ];

    #[test]
    fn watch_modes_keep_the_terminal() {
        check(WATCH_MODES);
    }

    const SERVERS: &[(&str, bool)] = &[
        ("uvicorn app:app --reload", EXEC),
        ("gunicorn app:app", EXEC),
        ("python -m uvicorn app:app", EXEC),
        ("python3 -m flask run", EXEC),
        ("flask run", EXEC),
        ("flask --app hello run", EXEC),
        ("flask routes", CAPTURE),
        ("flask --app hello shell", EXEC),
        ("timeout 60 flask shell", EXEC),
        ("php -S localhost:8000", EXEC),
        ("manage.py runserver", EXEC),
        ("./manage.py test", CAPTURE),
        ("django-admin shell", EXEC),
        ("rails s", EXEC),
        ("rails server", EXEC),
        ("bin/rails console", EXEC),
        ("rails test", CAPTURE),
        ("vite", EXEC),
        ("vite dev", EXEC),
        ("vite serve", EXEC),
        ("vite preview", EXEC),
        ("vite build", CAPTURE),
        ("vite build --watch", EXEC),
        ("parcel index.html", EXEC),
        ("parcel build index.html", CAPTURE),
        ("next dev", EXEC),
        ("next start", EXEC),
        ("next build", CAPTURE),
        ("nuxt dev", EXEC),
        ("ng serve", EXEC),
        ("ng test", EXEC),
        ("ng test --watch=false", CAPTURE),
        ("ng build", CAPTURE),
        ("react-scripts start", EXEC),
        ("react-scripts build", CAPTURE),
        ("expo start", EXEC),
        ("vue-cli-service serve", EXEC),
        ("gatsby develop", EXEC),
        ("docusaurus start", EXEC),
        ("hexo s", EXEC),
        ("hugo server", EXEC),
        ("hugo", CAPTURE),
        ("jekyll serve", EXEC),
        ("jekyll build", CAPTURE),
        ("mkdocs serve", EXEC),
        ("mkdocs build", CAPTURE),
        ("jupyter notebook", EXEC),
        ("jupyter lab", EXEC),
        ("jupyter nbconvert --to html nb.ipynb", CAPTURE),
        ("jupyter-lab", EXEC),
        ("symfony serve", EXEC),
        ("mix phx.server", EXEC),
        ("mix test", CAPTURE),
        ("streamlit run app.py", EXEC),
        ("mlflow ui", EXEC),
        ("celery -A proj worker", EXEC),
        ("airflow standalone", EXEC),
        ("dagster dev", EXEC),
        ("foreman start", EXEC),
        ("bin/dev", EXEC),
        ("caddy run", EXEC),
        ("wrangler dev", EXEC),
        ("wrangler deploy", CAPTURE),
        ("sam local start-api", EXEC),
        ("serverless offline", EXEC),
        ("ionic serve", EXEC),
        ("storybook dev -p 6006", EXEC),
        ("storybook build", CAPTURE),
        ("elm reactor", EXEC),
        ("elm make src/Main.elm", CAPTURE),
        ("quarto preview", EXEC),
        ("mdbook serve", EXEC),
        ("mdbook build", CAPTURE),
        ("ollama run llama3", EXEC),
        ("ollama run llama3 'why is the sky blue'", CAPTURE),
        ("ollama serve", EXEC),
        ("ollama list", CAPTURE),
        ("heroku logs --tail", EXEC),
        ("fly logs", EXEC),
        ("fly logs --no-tail", CAPTURE),
        ("fly ssh console", EXEC),
        ("caddy fmt", CAPTURE),
        ("pydoc -b", EXEC),
        ("pydoc json", CAPTURE),
        ("pm2 logs", EXEC),
        ("pm2 start app.js", CAPTURE),
        ("make dev", EXEC),
        ("make", CAPTURE),
        ("just serve", EXEC),
        ("cargo run", EXEC),
        ("cargo +nightly run --release", EXEC),
        ("cargo r", EXEC),
        ("cargo leptos watch", EXEC),
        ("cargo tauri dev", EXEC),
        ("go run .", EXEC),
        ("dotnet run", EXEC),
        ("dotnet watch", EXEC),
        ("dotnet build", CAPTURE),
        ("flutter run", EXEC),
        ("flutter test", CAPTURE),
        ("vercel", EXEC),
        ("vercel --prod --yes", CAPTURE),
        ("netlify login", EXEC),
        ("ng new app", EXEC),
        ("ng new app --defaults", CAPTURE),
    ];

    #[test]
    fn dev_servers_and_programs_of_unknown_nature_keep_the_terminal() {
        check(SERVERS);
    }

    const SCRIPTS: &[(&str, bool)] = &[
        ("npm start", EXEC),
        ("npm run dev", EXEC),
        ("npm run-script serve", EXEC),
        ("npm run watch", EXEC),
        ("npm run dev:api", EXEC),
        ("npm run css:watch", EXEC),
        ("npm run build", CAPTURE),
        ("npm run build -- --watch", EXEC),
        ("npm test", CAPTURE),
        ("npm test -- --watch", EXEC),
        ("npm run", CAPTURE),
        ("npm install", CAPTURE),
        ("npm --prefix web run dev", EXEC),
        ("npm exec vite", EXEC),
        ("npm exec -- tsc --noEmit", CAPTURE),
        ("npm init", EXEC),
        ("npm init -y", CAPTURE),
        ("npm create vite@latest", EXEC),
        ("npm login", EXEC),
        ("yarn dev", EXEC),
        ("yarn", CAPTURE),
        ("yarn add react", CAPTURE),
        ("yarn run storybook", EXEC),
        ("yarn dlx vite", EXEC),
        ("yarn build", CAPTURE),
        ("pnpm dev", EXEC),
        ("pnpm --filter web dev", EXEC),
        ("pnpm run build", CAPTURE),
        ("pnpm dlx create-vite", EXEC),
        ("pnpm dlx prettier --check .", CAPTURE),
        ("bun dev", EXEC),
        ("bun run dev", EXEC),
        ("bun --watch index.ts", EXEC),
        ("bun run build", CAPTURE),
        ("bun index.ts", CAPTURE),
        ("bun repl", EXEC),
        ("bun x vite", EXEC),
        ("bun test", CAPTURE),
        ("yarn workspace web dev", EXEC),
        ("yarn workspace web build", CAPTURE),
        ("turbo run dev", EXEC),
        ("turbo run build", CAPTURE),
        ("nx serve app", EXEC),
        ("nx run app:serve", EXEC),
        ("nx build app", CAPTURE),
        ("lerna run watch", EXEC),
    ];

    #[test]
    fn package_scripts_named_like_servers_keep_the_terminal() {
        check(SCRIPTS);
    }

    const PROMPTS: &[(&str, bool)] = &[
        ("apt install curl", EXEC),
        ("apt-get -y install curl", CAPTURE),
        ("apt-get install -yq curl", CAPTURE),
        ("apt update", CAPTURE),
        ("apt-get -s upgrade", CAPTURE),
        ("aptitude", CAPTURE),
        ("dnf install gcc", EXEC),
        ("dnf -y install gcc", CAPTURE),
        ("yum check-update", CAPTURE),
        ("pacman -Syu", EXEC),
        ("pacman -Syu --noconfirm", CAPTURE),
        ("pacman -Qi bash", CAPTURE),
        ("zypper install gcc", EXEC),
        ("zypper -n install gcc", CAPTURE),
        ("pip uninstall requests", EXEC),
        ("pip3 uninstall -y requests", CAPTURE),
        ("pip install requests", CAPTURE),
        ("conda install numpy", EXEC),
        ("conda install -y numpy", CAPTURE),
        ("conda list", CAPTURE),
        ("rm -i file", EXEC),
        ("rm -rf build", CAPTURE),
        ("cp -i a b", EXEC),
        ("mv --interactive a b", EXEC),
        ("ln -s a b", CAPTURE),
        ("passwd", EXEC),
        ("passwd -S root", CAPTURE),
        ("chsh", EXEC),
        ("adduser bob", EXEC),
        ("ssh-keygen -t ed25519", EXEC),
        ("ssh-keygen -l -f key.pub", CAPTURE),
        ("gpg --full-generate-key", EXEC),
        ("gpg --list-keys", CAPTURE),
        ("terraform apply", EXEC),
        ("terraform apply -auto-approve", CAPTURE),
        ("terraform apply plan.out", CAPTURE),
        ("terraform -chdir=infra apply", EXEC),
        ("terraform plan", CAPTURE),
        ("terraform console", EXEC),
        ("pulumi up", EXEC),
        ("pulumi up --yes", CAPTURE),
        ("pulumi watch", EXEC),
        ("aws configure", EXEC),
        ("aws configure get region", CAPTURE),
        ("aws sso login", EXEC),
        ("aws logs tail /app --follow", EXEC),
        ("aws s3 ls", CAPTURE),
        ("gcloud init", EXEC),
        ("gcloud auth login", EXEC),
        ("gcloud compute ssh vm", EXEC),
        ("gcloud compute ssh vm --command uptime", CAPTURE),
        ("az login", EXEC),
        ("gh auth login", EXEC),
        ("gh run watch", EXEC),
        ("gh run list", CAPTURE),
        ("firebase login", EXEC),
        ("cargo login", EXEC),
        ("cargo login TOKEN", CAPTURE),
        ("xargs -o vim", EXEC),
        ("xargs vim", EXEC),
        ("xargs rm", CAPTURE),
        ("find . -ok rm {} ;", EXEC),
        ("find . -name '*.rs'", CAPTURE),
        ("fdisk /dev/sda", EXEC),
        ("fdisk -l", CAPTURE),
        ("gdisk /dev/sda", EXEC),
        ("parted /dev/sda", EXEC),
        ("parted /dev/sda print", CAPTURE),
        ("parted -s /dev/sda mklabel gpt", CAPTURE),
        ("fsck /dev/sdb1", EXEC),
        ("fsck -y /dev/sdb1", CAPTURE),
        ("certbot --nginx", EXEC),
        ("certbot renew", CAPTURE),
        ("openssl req -new -key k.pem -out r.csr", EXEC),
        ("openssl req -new -subj /CN=x -key k.pem", CAPTURE),
        ("openssl req -in r.csr -noout -text", CAPTURE),
        ("rustup-init", EXEC),
        ("rustup-init -y", CAPTURE),
        ("cargo generate gh:org/template", EXEC),
        ("create-next-app", EXEC),
        ("npx create-vite my-app", EXEC),
        ("npx create-vite my-app --help", CAPTURE),
        ("create", CAPTURE),
        ("cookiecutter gh:org/tpl --no-input", CAPTURE),
        ("poetry init", EXEC),
        ("poetry init -n", CAPTURE),
        ("composer init --no-interaction", CAPTURE),
        ("bun create vite", EXEC),
        ("vue create app", EXEC),
        ("eslint --init", EXEC),
        ("eslint src", CAPTURE),
        ("ansible-playbook site.yml --step", EXEC),
        ("ansible-playbook site.yml", CAPTURE),
        ("firebase init", EXEC),
    ];

    #[test]
    fn prompts_written_to_stdout_keep_the_terminal() {
        check(PROMPTS);
    }

    const DEBUGGERS: &[(&str, bool)] = &[
        ("gdb ./prog", EXEC),
        ("gdb -batch -ex bt ./prog core", CAPTURE),
        ("lldb ./prog", EXEC),
        ("lldb --batch -o run ./prog", CAPTURE),
        ("python -m pdb script.py", EXEC),
        ("strace ls", CAPTURE),
        ("strace -f -o out.txt vim", EXEC),
        ("strace -p 1234", EXEC),
        ("valgrind --leak-check=full ./prog", CAPTURE),
        ("perf top", EXEC),
        ("perf stat ls", CAPTURE),
    ];

    #[test]
    fn debuggers_keep_the_terminal_unless_batch() {
        check(DEBUGGERS);
    }

    const WRAPPERS: &[(&str, bool)] = &[
        ("env FOO=1 vim", EXEC),
        ("env -i PATH=/bin make", CAPTURE),
        ("env -u HOME python", EXEC),
        ("env -S 'python3 -i'", EXEC),
        ("FOO=1 less file", EXEC),
        ("sudo vim /etc/hosts", EXEC),
        ("sudo -u postgres psql", EXEC),
        ("sudo -u postgres psql -c 'select 1'", CAPTURE),
        ("sudo -e /etc/hosts", EXEC),
        ("sudo -i", EXEC),
        ("sudo ls /root", CAPTURE),
        ("sudo apt install curl", EXEC),
        ("sudo -l", CAPTURE),
        ("doas -u root top", EXEC),
        ("doas make install", CAPTURE),
        ("pkexec vim", EXEC),
        ("su -c 'tail -f /var/log/syslog' root", EXEC),
        ("su -c 'make' root", CAPTURE),
        ("su -", EXEC),
        ("runuser -l app -c make", CAPTURE),
        ("nice -n 10 make", CAPTURE),
        ("nice -10 vim", EXEC),
        ("nohup tail -f log", EXEC),
        ("nohup make", CAPTURE),
        ("time cargo build", CAPTURE),
        ("time -v python", EXEC),
        // timeout ends what only runs until stopped; what needs a person still gets
        // the terminal, and 0 is no limit.
        ("timeout 10 tail -f log", CAPTURE),
        ("timeout 20 flask run", CAPTURE),
        ("timeout 1.5m npm run dev", CAPTURE),
        ("timeout 0 tail -f log", EXEC),
        ("timeout 10 vim", EXEC),
        ("timeout 10 bash", EXEC),
        ("timeout -s KILL 10 make", CAPTURE),
        ("stdbuf -oL tail -f log", EXEC),
        ("stdbuf -o L make", CAPTURE),
        ("ionice -c3 make", CAPTURE),
        ("chrt -f 10 top", EXEC),
        ("taskset -c 0 make", CAPTURE),
        ("taskset 0x1 htop", EXEC),
        ("setsid -w vim", EXEC),
        ("flock /tmp/lock make", CAPTURE),
        ("flock /tmp/lock -c 'less x'", EXEC),
        ("xvfb-run -a npm test", CAPTURE),
        ("chroot /srv", EXEC),
        ("chroot /srv ls", CAPTURE),
        ("unshare -r bash", EXEC),
        ("gosu app bash", EXEC),
        ("systemd-run -t bash", EXEC),
        ("systemd-run make", CAPTURE),
        ("unbuffer make", CAPTURE),
        ("catchsegv ./prog", CAPTURE),
        ("dbus-run-session bash", EXEC),
        ("npx vite", EXEC),
        ("npx vite build", CAPTURE),
        ("npx -y tsc --noEmit", CAPTURE),
        ("npx -p typescript tsc --watch", EXEC),
        ("npx -c 'vite dev'", EXEC),
        ("pnpx jest --watch", EXEC),
        ("bunx vitest run", CAPTURE),
        ("uvx ruff check", CAPTURE),
        ("uvx --from ipython ipython", EXEC),
        ("uv run python", EXEC),
        ("uv run pytest", CAPTURE),
        ("uv run --with rich script.py", CAPTURE),
        ("uv run -m http.server", EXEC),
        ("pipx run ptpython", EXEC),
        ("poetry run python", EXEC),
        ("poetry run pytest", CAPTURE),
        ("poetry shell", EXEC),
        ("pipenv run flask run", EXEC),
        ("hatch run test", CAPTURE),
        ("conda run -n env python", EXEC),
        ("conda run -n env pytest", CAPTURE),
        ("bundle exec rails s", EXEC),
        ("bundle exec rspec", CAPTURE),
        ("bundle console", EXEC),
        ("pyenv exec python", EXEC),
        ("mise exec -- node", EXEC),
        ("direnv exec . make", CAPTURE),
        ("aws-vault exec prod -- bash", EXEC),
        ("op run -- npm run dev", EXEC),
        ("doppler run --command 'npm start'", EXEC),
        ("nix-shell", EXEC),
        ("nix-shell --run 'make test'", CAPTURE),
        ("nix develop -c make", CAPTURE),
        ("nix develop", EXEC),
        ("nix repl", EXEC),
        ("sudo sudo sudo sudo sudo sudo sudo sudo ls", EXEC),
    ];

    #[test]
    fn wrappers_are_seen_through() {
        check(WRAPPERS);
    }

    const BATCH: &[(&str, bool)] = &[
        ("git log -p", CAPTURE),
        ("python script.py", CAPTURE),
        ("ssh host uname", CAPTURE),
        ("docker run image echo hi", CAPTURE),
        ("tail file", CAPTURE),
        ("vite build", CAPTURE),
        ("npm run build", CAPTURE),
        ("cargo build", CAPTURE),
        ("cargo test -- --nocapture", CAPTURE),
        ("make", CAPTURE),
        ("make -j4 all", CAPTURE),
        ("ls -la", CAPTURE),
        ("grep -r foo .", CAPTURE),
        ("pytest -x", CAPTURE),
        ("go test ./...", CAPTURE),
        ("ruff check .", CAPTURE),
        ("eslint src", CAPTURE),
        ("cat README.md", CAPTURE),
        ("./build.sh", CAPTURE),
    ];

    #[test]
    fn batch_commands_are_captured() {
        check(BATCH);
    }

    const ALL: [&[(&str, bool)]; 15] = [
        REPLS,
        SHELLS,
        DATABASES,
        EDITORS_PAGERS_SCREENS,
        GIT,
        REMOTE,
        CONTAINERS,
        NEVER_ENDING,
        WATCH_MODES,
        SERVERS,
        SCRIPTS,
        PROMPTS,
        DEBUGGERS,
        WRAPPERS,
        BATCH,
    ];

    #[test]
    fn every_reason_timeout_may_end_is_a_reason_rows_give() {
        // `bounded` reads reasons by their words: a row's reason renamed would otherwise
        // silently stop being ended by `timeout`.
        for reason in super::super::UNTIL_STOPPED {
            assert!(
                TABLE.iter().any(|r| r.reason == *reason),
                "no row gives `{reason}`"
            );
        }
    }

    #[test]
    fn every_row_is_exercised_by_a_case() {
        VISITED.with(|v| v.borrow_mut().clear());
        for (line, _) in ALL.iter().copied().flatten() {
            mode(&argv(line));
        }
        let visited = VISITED.with(|v| v.borrow().clone());
        let missing: Vec<String> = (0..TABLE.len())
            .filter(|i| !visited.contains(i))
            .map(|i| format!("{} {}", TABLE[i].names, TABLE[i].sub))
            .collect();
        assert!(missing.is_empty(), "rows with no case: {missing:#?}");
    }

    #[test]
    fn wrappers_do_not_change_any_cases_decision() {
        let wrappers = [
            "sudo",
            "env A=1",
            "nice -n 5",
            "nohup",
            "timeout 5",
            "stdbuf -oL",
            "time -p",
        ];
        for &(line, exec) in ALL.iter().copied().flatten() {
            let words = argv(line);
            let cases = wrappers
                .iter()
                .map(|w| argv(w).into_iter().chain(words.clone()));
            for wrapped in cases {
                let wrapped: Vec<OsString> = wrapped.collect();
                let got = mode(&wrapped);
                // `timeout` ends what only runs until stopped (see `bounded`).
                let ended = wrapped[0] == "timeout"
                    && matches!(mode(&argv(line)), Mode::Exec(r) if super::super::UNTIL_STOPPED.contains(&r));
                let want = exec && !ended;
                assert_eq!(
                    matches!(got, Mode::Exec(_)),
                    want,
                    "{wrapped:?} against `{line}`"
                );
            }
        }
    }

    #[test]
    fn a_shell_script_keeps_every_exec_of_its_commands() {
        for &(line, exec) in ALL.iter().copied().flatten() {
            // Quote what the command line quoted, so the script means the same.
            let words: Vec<String> = argv(line)
                .iter()
                .map(|w| w.to_string_lossy().into_owned())
                .map(|w| if w.contains(' ') { format!("'{w}'") } else { w })
                .collect();
            let script = format!("cd /tmp && {}", words.join(" "));
            let got = mode(&[OsString::from("sh"), "-c".into(), script.clone().into()]);
            assert!(
                !exec || matches!(got, Mode::Exec(_)),
                "sh -c `{script}`: {got:?}"
            );
        }
    }

    #[test]
    fn rows_that_can_exec_say_why() {
        for row in TABLE {
            let tiers = &row.tiers[..row.n_tiers];
            let can_exec = row.default == Outcome::Exec
                || row.bare == Some(Outcome::Exec)
                || tiers.iter().any(|(outcome, _)| *outcome == Outcome::Exec);
            assert!(
                !can_exec || !row.reason.is_empty(),
                "`{} {}` can exec without a reason",
                row.names,
                row.sub
            );
        }
        assert_eq!(mode(&argv("env")), Mode::Exec(WRAPPED));
    }

    #[test]
    fn no_two_rows_claim_the_same_program_and_subcommand() {
        let mut seen = std::collections::BTreeSet::new();
        for row in TABLE {
            for name in row.names.split_whitespace() {
                let subs: Vec<&str> = row.sub.split_whitespace().collect();
                for sub in if subs.is_empty() { vec![""] } else { subs } {
                    assert!(seen.insert((name, sub)), "`{name} {sub}` is claimed twice");
                }
            }
        }
    }
}
