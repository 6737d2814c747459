#!/usr/bin/env bash
# Issue 13's sitting, repeatable: this checkout against the first version (43c749a), built side by side and run in
# turn on this machine, because absolute timings move from machine to machine and from minute to minute.
#
#   aries-bench/against-43c749a.sh [small] [full] [flat]     (all three when none is named)
#
# small  the 1,056-node canonical dragonfly, UGAL, 50 % uniform load, 300 us measured; this build on one thread.
#        Reports packet-hops per CPU second of both builds and their ratio (the issue asks 3x), and the ratio of the
#        packet-hops per second the runs report themselves (the simulation's own wall time).
# full   the full 241-group system, adaptive0 at 10 %, 1 us measured after 0.5 us; this build with its default
#        threads. Reports wall time of both and how many times sooner this build finishes (the issue asks 8x).
# flat   this build only: events per second of the full run on one thread against the small run's (100 us measured),
#        pair by pair (the issue asks at least 1/1.5 = 0.67); also the same ratio of packet-hops per second, since
#        the two runs' events per hop differ with their routing and load, not with their size.
# big    not in the default set (43c749a takes 11-14 minutes on it here): the full system at 50 % uniform load, 0.2 us
#        measured after 0.2 us, once each, this build with its default threads, with a GC log. Reports the largest
#        heap in use before a collection (the issue asks at most 8 GiB) and how many times sooner this build finishes.
# At the end, the issue's before-and-after table (events, packet-hops, events per packet-hop, packet-hops per second
# as the run reports it, heap, wall; medians of the counted runs) for the runs of this call among small, full, big.
#
# Environment: PAIRS (default 3) runs of each build in turn, A B A B ..., after one uncounted warm-up of each; every
# ratio is taken pair by pair and the median is printed with the smallest and largest. OUT (default
# target/against-43c749a) keeps each run's JSON and times. BASE (default target/base-43c749a) is where the first
# version's sources are unpacked (git archive) and built. Both builds get the same JVM options: this launcher's,
# -Xmx8g -XX:+UseParallelGC, and transparent huge pages where the kernel offers them; ARIES_JAVA_OPTS replaces them.
# Needs git, Maven and a JDK 17, bash's time keyword and awk. A whole sitting with PAIRS=3 takes about 15 minutes
# on a 2-core machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pairs="${PAIRS:-3}"
out="${OUT:-$root/target/against-43c749a}"
base="${BASE:-$root/target/base-43c749a}"
which=("$@")
if [ ${#which[@]} -eq 0 ]; then
  which=(small full flat)
fi
for w in "${which[@]}"; do
  case "$w" in
    small|full|flat|big) ;;
    *) echo "against-43c749a: runs must be among small, full, flat, big but one was \"$w\"" >&2; exit 2 ;;
  esac
done
case "$pairs" in
  ''|*[!0-9]*|0) echo "against-43c749a: PAIRS must be a whole number >= 1 but was \"$pairs\"" >&2; exit 2 ;;
esac

opts="-Xmx8g -XX:+UseParallelGC"
if grep -qs -e '\[madvise\]' -e '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled; then
  opts="$opts -XX:+UseTransparentHugePages"
fi
opts="${ARIES_JAVA_OPTS:-$opts}"

mvnq=(mvn -B -q -Dstyle.color=never -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true)
# (Maven's console library writes colour resets even in batch mode: stripped, as the launcher does)
build() {
  (cd "$1" && "${mvnq[@]}" -pl "$2" -am package) 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2
}
echo "building this checkout..." >&2
build "$root" aries-cli
new="$root/aries-cli/target/aries-cli-0.1.0-SNAPSHOT.jar"
old="$base/aries-sim/target/aries-sim-0.1.0-SNAPSHOT.jar"
if [ ! -f "$old" ]; then
  echo "building 43c749a in $base..." >&2
  rm -rf "$base"
  mkdir -p "$base"
  git -C "$root" archive 43c749a | tar -x -C "$base"
  build "$base" aries-sim
fi
mkdir -p "$out"

# run NAME JAR ARGS...: one run; appends "wall user sys" to NAME.times and the JSON to NAME.json
run() {
  local name="$1" jar="$2"
  shift 2
  local t
  t="$( { TIMEFORMAT='%R %U %S'; time java $opts $extra -jar "$jar" "$@" >> "$out/$name.json" 2>> "$out/$name.err"; } \
    2>&1 )"
  echo "$t" >> "$out/$name.times"
}

# (extra JVM options of a run: the GC log of the big run)
extra=""

# field NAME KEY: the values of a JSON number field, one per run, warm-up first
field() {
  grep -o "\"$2\" : [0-9.eE+-]*" "$out/$1.json" | awk '{print $3}'
}

# per_hop NAME: events per packet-hop of the last run of NAME
per_hop() {
  awk -v e="$(field "$1" events | tail -1)" -v h="$(field "$1" packetHops | tail -1)" 'BEGIN {printf "%.3f", e / h}'
}

# median of the numbers on standard input, with min and max: "median (min-max)"
median() {
  sort -g | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2;
    printf "%.4g (%.4g-%.4g)", m, v[1], v[NR]}'
}

# pairs NAME_A NAME_B ARGS_A -- ARGS_B: a warm-up of each, then PAIRS runs in turn
sitting() {
  local a="$1" b="$2"
  shift 2
  local args_a=() args_b=()
  while [ "$1" != "--" ]; do args_a+=("$1"); shift; done
  shift
  args_b=("$@")
  rm -f "$out/$a".* "$out/$b".*
  local i
  for ((i = 0; i <= pairs; i++)); do
    run "$a" "${args_a[@]}"
    run "$b" "${args_b[@]}"
    echo "  $a / $b: pair $i of $pairs done (0 is the warm-up)" >&2
  done
}

# cpu NAME: CPU seconds (user + system) of each counted run
cpu() {
  tail -n +2 "$out/$1.times" | awk '{print $2 + $3}'
}

small=(traffic --topology canonical:p=4,a=8,h=4 --routing ugal --pattern uniform --load 0.5 --json)
full=(traffic --topology full --routing adaptive0 --load 0.1 --measure-us 1 --warmup-us 0.5 --json)
big=(traffic --topology full --routing adaptive0 --pattern uniform --load 0.5 --warmup-us 0.2 --measure-us 0.2 --json)

# heap NAME: "M MiB in use (C committed)", the largest heap in use before a collection and the largest committed heap
# in NAME's GC log, or "no collection"
heap() {
  grep -o '[0-9]*M->[0-9]*M([0-9]*M)' "$out/$1.gc" 2>/dev/null | tr 'M>()-' '     ' \
    | awk '$1 > m {m = $1} $3 > c {c = $3} END {if (NR) printf "%d MiB in use (%d committed)", m, c;
      else printf "no collection"}'
}

# row LABEL NAME SKIP: a row of the before-and-after table from NAME's runs, the first SKIP of them left out
rows=()
row() {
  local name="$2" skip="$3"
  local counted=$((skip + 1))
  rows+=("| $1 | $(field "$name" events | tail -1) | $(field "$name" packetHops | tail -1) | $(per_hop "$name") |\
 $(field "$name" packetHopsPerSecond | tail -n +"$counted" | awk '{print $1 / 1e6}' | median | cut -d' ' -f1) M |\
 $(if [ -f "$out/$name.gc" ]; then heap "$name"; else echo "-"; fi) |\
 $(tail -n +"$counted" "$out/$name.times" | awk '{print $1}' | median | cut -d' ' -f1) s |")
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -m), java: $(java -version 2>&1 | head -1)"
echo "JVM options of both builds: $opts; $pairs pairs after one warm-up each"
for w in "${which[@]}"; do
  case "$w" in
    small)
      echo "small: ${small[*]} --measure-us 300 (this build --threads 1)"
      sitting small-new small-old "$new" "${small[@]}" --measure-us 300 --threads 1 -- "$old" "${small[@]}" \
        --measure-us 300
      hn="$(field small-new packetHops | tail -1)"
      ho="$(field small-old packetHops | tail -1)"
      echo "  packet-hops: this build $hn, 43c749a $ho; events per packet-hop: this build" \
        "$(per_hop small-new), 43c749a $(per_hop small-old)"
      echo "  CPU s: this build $(cpu small-new | median), 43c749a $(cpu small-old | median)"
      echo "  packet-hops per CPU second, this build / 43c749a, pair by pair: $(paste <(cpu small-new) \
        <(cpu small-old) | awk -v hn="$hn" -v ho="$ho" '{print (hn / $1) / (ho / $2)}' | median) (issue: >= 3)"
      echo "  packet-hops per second as each run reports it (the simulation alone, no start-up or compiler threads)," \
        "this build / 43c749a, pair by pair: $(paste <(field small-new packetHopsPerSecond | tail -n +2) \
        <(field small-old packetHopsPerSecond | tail -n +2) | awk '{print $1 / $2}' | median)"
      row "1,056 nodes, UGAL 50 %, 300 us, one thread: this build" small-new 1
      row "the same: 43c749a" small-old 1
      ;;
    full)
      echo "full: ${full[*]} (this build with its default threads)"
      sitting full-new full-old "$new" "${full[@]}" -- "$old" "${full[@]}"
      echo "  wall s: this build $(tail -n +2 "$out/full-new.times" | awk '{print $1}' | median), 43c749a" \
        "$(tail -n +2 "$out/full-old.times" | awk '{print $1}' | median)"
      echo "  times sooner (43c749a wall / this build's), pair by pair: $(paste <(tail -n +2 "$out/full-new.times") \
        <(tail -n +2 "$out/full-old.times") | awk '{print $4 / $1}' | median) (issue: >= 8)"
      row "92,544 nodes, adaptive0 10 %, 1 us after 0.5 us, default threads: this build" full-new 1
      row "the same: 43c749a" full-old 1
      ;;
    big)
      echo "big: ${big[*]} (once each, this build with its default threads)"
      rm -f "$out"/big-new.* "$out"/big-old.*
      extra="-Xlog:gc:file=$out/big-new.gc"
      run big-new "$new" "${big[@]}"
      echo "  big: this build done" >&2
      extra="-Xlog:gc:file=$out/big-old.gc"
      run big-old "$old" "${big[@]}"
      extra=""
      echo "  heap: this build $(heap big-new), 43c749a $(heap big-old) (issue: at most 8 GiB)"
      echo "  wall s: this build $(awk '{print $1}' "$out/big-new.times"), 43c749a $(awk '{print $1}' \
        "$out/big-old.times"); times sooner: $(paste "$out/big-new.times" "$out/big-old.times" \
        | awk '{printf "%.3g", $4 / $1}')"
      row "92,544 nodes, adaptive0 50 %, 0.2 us after 0.2 us, default threads: this build" big-new 0
      row "the same: 43c749a" big-old 0
      ;;
    flat)
      echo "flat: the full run --threads 1 against the small run --measure-us 100 --threads 1, this build"
      sitting flat-full flat-small "$new" "${full[@]}" --threads 1 -- "$new" "${small[@]}" --measure-us 100 \
        --threads 1
      echo "  events/s: full $(field flat-full eventsPerSecond | tail -n +2 | median), small" \
        "$(field flat-small eventsPerSecond | tail -n +2 | median)"
      echo "  full / small, pair by pair: $(paste <(field flat-full eventsPerSecond | tail -n +2) \
        <(field flat-small eventsPerSecond | tail -n +2) | awk '{print $1 / $2}' | median) (issue: >= 0.67)"
      echo "  packet-hops/s full / small, pair by pair (not the issue's measure; events per hop: full" \
        "$(per_hop flat-full), small $(per_hop flat-small)):" \
        "$(paste <(field flat-full packetHopsPerSecond | tail -n +2) <(field flat-small packetHopsPerSecond \
        | tail -n +2) | awk '{print $1 / $2}' | median)"
      ;;
  esac
done
if [ ${#rows[@]} -gt 0 ]; then
  echo "the issue's table (medians of the counted runs; heap from the GC log where there is one):"
  echo "| run | events | packet-hops | events per packet-hop | packet-hops/s (the run's own) | heap | wall |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
fi
echo "raw runs: $out"
