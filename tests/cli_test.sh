#!/bin/sh
# cli_test.sh NSMC SOURCE_DIR - the command line: exit statuses, messages, and
# that a failed compilation leaves no output file (not even a temporary one).
nsmc=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect STATUS DESCRIPTION COMMAND...: runs the command, checks its status.
expect() {
    want=$1
    what=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: $what: exit $got, expected $want"
        cat "$tmp/out" "$tmp/err"
        fail=1
    fi
}

# grep_err PATTERN DESCRIPTION: the last command's stderr must match.
grep_err() {
    if ! grep -q -- "$1" "$tmp/err"; then
        echo "FAIL: $2: stderr does not match '$1':"
        cat "$tmp/err"
        fail=1
    fi
}

expect 0 "--help" "$nsmc" --help
grep -q "usage: nsmc" "$tmp/out" || { echo "FAIL: --help prints no usage"; fail=1; }
expect 0 "--version" "$nsmc" --version
grep -q "^nsmc [0-9]" "$tmp/out" || { echo "FAIL: --version"; fail=1; }
expect 1 "unknown option" "$nsmc" --frobnicate "$src/models/two_mass.nsm"
grep_err "unknown option '--frobnicate'" "unknown option"
expect 1 "no input" "$nsmc" --check
grep_err "no input file" "no input"
expect 1 "two inputs" "$nsmc" --check a.nsm b.nsm
expect 1 "-o without file" "$nsmc" "$src/models/two_mass.nsm" -o
expect 1 "missing file" "$nsmc" --check "$tmp/missing.nsm"
grep_err "missing.nsm: error: cannot open file: No such file or directory" "missing file"
expect 1 "directory" "$nsmc" --check "$tmp"
printf 'mass M = 1 kg\0' >"$tmp/nul.nsm"
expect 1 "NUL byte" "$nsmc" --check "$tmp/nul.nsm"
grep_err "not a text file" "NUL byte"

expect 0 "--check on a valid model" "$nsmc" --check "$src/models/two_mass.nsm"
[ -s "$tmp/out" ] || [ -s "$tmp/err" ] && { echo "FAIL: --check is not silent"; fail=1; }
expect 0 "--dump=tokens" "$nsmc" --dump=tokens "$src/models/two_mass.nsm"
expect 0 "--dump=ast" "$nsmc" --dump=ast "$src/models/two_mass.nsm"

# A model error: exit 1 and no output file, no temporary left behind.
printf 'mass M = 1 kg\nspring ground -- X, k = 1 N/m\n' >"$tmp/bad.nsm"
mkdir "$tmp/outdir"
expect 1 "model error" "$nsmc" "$tmp/bad.nsm" -o "$tmp/outdir/bad.c"
grep_err "bad.nsm:2:18: error: unknown name 'X'" "model error"
[ -z "$(ls "$tmp/outdir")" ] || { echo "FAIL: files left after a model error: $(ls "$tmp/outdir")"; fail=1; }
expect 1 "syntax error" "$nsmc" --emit=equations -o "$tmp/outdir/bad.md" "$tmp/bad.nsm"
[ -z "$(ls "$tmp/outdir")" ] || { echo "FAIL: files left after an error: $(ls "$tmp/outdir")"; fail=1; }

# A valid model: whatever the later phases do, success means a complete file
# and failure means none at all.
"$nsmc" "$src/models/two_mass.nsm" -o "$tmp/outdir/two_mass.c" >"$tmp/out" 2>"$tmp/err"
status=$?
case $status in
0) [ -s "$tmp/outdir/two_mass.c" ] || { echo "FAIL: exit 0 but no output"; fail=1; } ;;
*) [ -z "$(ls "$tmp/outdir")" ] || { echo "FAIL: exit $status but files left: $(ls "$tmp/outdir")"; fail=1; } ;;
esac
[ "$(ls "$tmp/outdir" | grep -c tmp)" = 0 ] || { echo "FAIL: temporary file left"; fail=1; }

# A frequency in Hz inside sin or cos is taken as rad/s: a warning with the
# place and a caret, exit 0; with 2*pi converting it, none.
printf 'model hz\nparam w = 10 Hz\nmass M = 1 kg\nspring ground -- M, k = 1 N/m\nforce F: on M = 1 N * cos(w*t)\nforce G: on M = 1 N * sin(2*pi*w*t)\nsimulate t_end = 1 s\n' >"$tmp/hz.nsm"
expect 0 "Hz inside cos" "$nsmc" --check "$tmp/hz.nsm"
grep_err "hz.nsm:5:27: warning: a frequency in Hz inside 'cos' is taken as rad/s" "Hz warning"
grep_err '^ *| *\^~~$' "Hz warning caret"
[ "$(grep -c warning "$tmp/err")" = 1 ] || { echo "FAIL: 2*pi*w inside sin warned too"; cat "$tmp/err"; fail=1; }

[ $fail = 0 ] && echo "command line: all checks passed"
exit $fail
