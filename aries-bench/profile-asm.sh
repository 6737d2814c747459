#!/usr/bin/env bash
# Instruction-level profile of a running simulation: which machine instructions of the JIT-compiled code the
# samples land on, with the code around them. JFR's attribution to source lines misled on this project's hot loops
# (docs/performance.md, "Stop 35"); this one samples the CPU clock with perf and reads the compiled code back from
# the live process with gdb, so nothing is mapped back to lines.
#
# Usage: aries-bench/profile-asm.sh [-w WARM_S] [-s SAMPLE_S] [-n TOP] [-o DIR] -- java ARGS...
#   -w  seconds to wait before sampling (JIT warm-up; default 12)
#   -s  seconds to sample (default 20); the command must still be running at the end, as its code is read then
#   -n  how many of the hottest compiled methods to disassemble (default 8)
#   -o  output directory (default /tmp/profile-asm)
# Writes DIR/methods.txt (samples by method, perf's report) and DIR/asm-K.txt for the K-th hottest method: every
# instruction with its sample count, the total on the first line.
#
# Needs perf (software event cpu-clock: no hardware counters needed), gdb and a JDK 17+ (jcmd Compiler.perfmap).
# With a cpu-clock sample the instruction blamed is usually the one after the one that stalled retirement: a count
# on the instruction after a load is that load's wait. Inlined methods are counted under the method they are
# inlined into. Not part of the build or the tests.
set -euo pipefail

warm=12
secs=20
top=8
dir=/tmp/profile-asm
while getopts "w:s:n:o:" opt; do
  case "$opt" in
    w) warm=$OPTARG ;;
    s) secs=$OPTARG ;;
    n) top=$OPTARG ;;
    o) dir=$OPTARG ;;
    *) echo "usage: $0 [-w WARM_S] [-s SAMPLE_S] [-n TOP] [-o DIR] -- java ARGS..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
if [ $# -eq 0 ] || [ "$(basename "$1")" != java ]; then
  echo "profile-asm: give the java command after --, e.g. -- java -jar aries-cli/target/aries-cli-0.1.0-SNAPSHOT.jar traffic ..." >&2
  exit 2
fi
for tool in perf gdb jcmd awk; do
  command -v "$tool" >/dev/null || { echo "profile-asm: $tool is not on the PATH" >&2; exit 2; }
done
mkdir -p "$dir"

"$1" -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit "${@:2}" >"$dir/command.out" 2>&1 &
pid=$!
sleep "$warm"
kill -0 "$pid" 2>/dev/null || { echo "profile-asm: the command ended within the warm-up; see $dir/command.out" >&2; exit 1; }
perf record -q -e cpu-clock -F 4999 -p "$pid" -o "$dir/perf.data" -- sleep "$secs" >/dev/null 2>&1
kill -0 "$pid" 2>/dev/null || { echo "profile-asm: the command ended while sampling; sample for less time" >&2; exit 1; }
jcmd "$pid" Compiler.perfmap >/dev/null
map=/tmp/perf-$pid.map

perf report -i "$dir/perf.data" --sort symbol --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' >"$dir/methods.txt"
perf script -i "$dir/perf.data" -F ip 2>/dev/null | sort | uniq -c | awk '{print $2, $1}' >"$dir/ips.txt"

# Hex to number in any awk (mawk has no strtonum); addresses are below 2^53, so doubles hold them exactly.
hex='function hex(h,  i, v, c) { sub(/^0x/, "", h); v = 0
  for (i = 1; i <= length(h); i++) { c = index("0123456789abcdef", tolower(substr(h, i, 1))) - 1; v = v * 16 + c }
  return v }'

# The map's code blobs holding the most samples, hottest first: start, size, samples, name.
awk "$hex"'
     NR == FNR { n[$1] = $2; next }
     { start = hex($1); size = hex($2); name = $0; sub(/^[^ ]+ [^ ]+ /, "", name)
       blob[++b] = start; len[b] = size; nm[b] = name; bs[b] = $1; ls[b] = $2 }
     END { for (ip in n) { a = hex(ip)
             for (i = 1; i <= b; i++) if (a >= blob[i] && a < blob[i] + len[i]) { s[i] += n[ip]; break } }
           for (i in s) print bs[i], ls[i], s[i], nm[i] }' \
  "$dir/ips.txt" "$map" | sort -k3,3nr | head -n "$top" >"$dir/blobs.txt"

k=0
while read -r start size samples name; do
  k=$((k + 1))
  { gdb -p "$pid" -batch -ex "set pagination off" -ex "x/$((size / 2))i $start" </dev/null 2>/dev/null || true; } \
    | awk -v lo="$start" -v hi="$size" "$hex"'
        NR == FNR { n[$1] = $2; next }
        match($0, /0x[0-9a-f]+/) { a = substr($0, RSTART + 2, RLENGTH - 2)
          if (hex(a) >= hex(lo) + hex(hi)) exit
          printf "%7s %s\n", (a in n ? n[a] : ""), $0 }' "$dir/ips.txt" - >"$dir/asm-$k.body"
  { echo "$samples samples: $name"; cat "$dir/asm-$k.body"; } >"$dir/asm-$k.txt"
  rm -f "$dir/asm-$k.body"
done <"$dir/blobs.txt"
echo "profile-asm: $(wc -l <"$dir/blobs.txt") methods in $dir (methods.txt, asm-1.txt ...); the command goes on (pid $pid)"
