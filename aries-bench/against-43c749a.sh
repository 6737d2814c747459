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
    small|full|flat) ;;
    *) echo "against-43c749a: runs must be among small, full, flat but one was \"$w\"" >&2; exit 2 ;;
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
  t="$( { TIMEFORMAT='%R %U %S'; time java $opts -jar "$jar" "$@" >> "$out/$name.json" 2>> "$out/$name.err"; } 2>&1 )"
  echo "$t" >> "$out/$name.times"
}

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
      ;;
    full)
      echo "full: ${full[*]} (this build with its default threads)"
      sitting full-new full-old "$new" "${full[@]}" -- "$old" "${full[@]}"
      echo "  wall s: this build $(tail -n +2 "$out/full-new.times" | awk '{print $1}' | median), 43c749a" \
        "$(tail -n +2 "$out/full-old.times" | awk '{print $1}' | median)"
      echo "  times sooner (43c749a wall / this build's), pair by pair: $(paste <(tail -n +2 "$out/full-new.times") \
        <(tail -n +2 "$out/full-old.times") | awk '{print $4 / $1}' | median) (issue: >= 8)"
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
echo "raw runs: $out"
