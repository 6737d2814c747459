#!/usr/bin/env bash
# A golden set: deterministic runs whose outputs must stay byte-identical across a change that should not move a
# simulated result (CONTRIBUTING, "Measure before and after", step 2). Run it with the jar built before the change
# and with the jar built after, then compare the two directories.
#
#   aries-bench/golden-runs.sh JAR OUTDIR        writes OUTDIR/NN-name.txt, one file a run; exit 1 if any run failed
#                                                (every output is written first; a failed run's file starts "failed:")
#   aries-bench/golden-runs.sh --compare A B     names every file that differs, every failed or empty output, and
#                                                every thread-count variant that differs from its one-thread run;
#                                                exit 1 if any
#
# The set (35 outputs with the trace, 31 without): every workload of `run` on its default system but `replay`, which
# needs a trace (results.json, wall-clock fields left out by --no-wall-clock; mpi-collectives with parameters, and
# mpi-rma and put-rate, added in stop 76, last), pingpong and gups again on two engine threads, the AMG trace of
# ../shared/traces replayed on one and two engine threads, with a random mapping and beside a second copy of itself
# (when the trace is there; the replays write their files in a scratch folder of the script's, not the caller's
# ./results),
# `traffic` points over five routings, three patterns and three systems (the canonical 1,056 nodes on one to three
# threads, Edison on two, the full system on one and two), Edison as cabled with and without failed links, the
# `iommu` study on two page sizes, and a three-point sweep on two jobs at a time. Lines
# that carry a wall-clock time or a rate per second are left out of the `traffic`, `replay` and `iommu` outputs, and
# from every output the build's `commit` and `dirty` lines (results.json's `run.build`, the `build` of `traffic` and
# `iommu --json`; since stop 78), which differ between any two builds; its `version` is kept. About
# three minutes on 2 cores when they are free (stop 76, the 35 runs: 3.8 minutes of user time, 10.5 of wall time on a
# shared 2-core VM). Needs bash and a JDK 17.
set -uo pipefail

if [ "${1:-}" = "--compare" ]; then
  [ $# -eq 3 ] || { echo "usage: $0 --compare DIR_A DIR_B" >&2; exit 2; }
  bad=0
  for d in "$2" "$3"; do
    [ -d "$d" ] || { echo "golden-runs: --compare needs two directories but \"$d\" is not one" >&2; exit 2; }
    ls "$d"/*.txt > /dev/null 2>&1 || { echo "golden-runs: no outputs (*.txt) in $d"; bad=1; }
    for f in "$d"/*.txt; do
      [ -f "$f" ] || continue
      # a run that failed the same way with both jars would compare identical: it is not a pass
      if [ ! -s "$f" ]; then
        echo "failed: $f is empty"; bad=1
      elif [ "$(head -c 7 "$f")" = "failed:" ]; then
        echo "failed: $f starts with failed: (the run exited non-zero)"; bad=1
      fi
    done
    # runs that differ only in their thread count must give the same bytes (the project's rule: same configuration
    # and seed, same results for any thread count); the traffic outputs carry no thread count
    for group in traffic-ugal-1thread:traffic-ugal-2threads:traffic-ugal-3threads \
        traffic-full-1thread:traffic-full-2threads; do
      IFS=: read -r -a names <<< "$group"
      first=$(ls "$d"/[0-9][0-9]-"${names[0]}".txt 2>/dev/null | head -1)
      [ -n "$first" ] || continue
      for n in "${names[@]:1}"; do
        other=$(ls "$d"/[0-9][0-9]-"$n".txt 2>/dev/null | head -1)
        if [ -z "$other" ]; then
          echo "threads: $d has ${names[0]} but no $n"; bad=1
        elif ! cmp -s "$first" "$other"; then
          echo "threads: $(basename "$other") differs from $(basename "$first") in $d"; bad=1
        fi
      done
    done
  done
  for f in "$2"/*.txt; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    if [ ! -f "$3/$n" ]; then
      echo "only in $2: $n"; bad=1
    elif ! cmp -s "$f" "$3/$n"; then
      echo "differs: $n"; bad=1
    fi
  done
  for f in "$3"/*.txt; do
    [ -f "$f" ] || continue
    [ -f "$2/$(basename "$f")" ] || { echo "only in $3: $(basename "$f")"; bad=1; }
  done
  [ $bad = 0 ] && echo "golden-runs: all $(ls "$2"/*.txt | wc -l) outputs identical"
  exit $bad
fi

[ $# -eq 2 ] || { echo "usage: $0 JAR OUTDIR | --compare DIR_A DIR_B" >&2; exit 2; }
jar="$1"
out="$2"
[ -f "$jar" ] || { echo "golden-runs: JAR must be a built aries-cli jar but \"$jar\" is not a file" >&2; exit 2; }
# absolute, as the replays run in the scratch folder
jar="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
trace="$root/../shared/traces/amg-n27-dumpi"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
java=(java -Xmx6g -XX:+UseParallelGC -jar "$jar")
i=0
failed=()

# unbuilt: the text without the lines of the build's commit and whether its tree was dirty (results.json's run.build,
# traffic's and iommu's build), which differ between any two builds (docs/results-schema.md)
unbuilt() {
  grep -v -E '^ *"(commit|dirty)" : ' || true
}

# json NAME ARGS...: a command's printed JSON without its wall-clock and per-second lines; run in the scratch folder
# (a command that writes files, replay, is given a relative --out there: its JSON names that path, which so reads the
# same in every run, and as it did when the replays wrote the caller's ./results/replay, until stop 76)
json() {
  local name="$1"
  shift
  i=$((i + 1))
  local file
  file="$out/$(printf %02d $i)-$name.txt"
  (cd "$work" && "${java[@]}" "$@") 2>&1 | grep -v -i -e '"wall' -e 'seconds' -e 'perSecond' -e 'Per_s' | unbuilt \
    > "$file"
  if [ "${PIPESTATUS[0]}" != 0 ]; then
    { echo "failed:"; cat "$file"; } > "$work/failed" && mv "$work/failed" "$file"
    failed+=("$name")
  fi
}

# results NAME ARGS...: a run's results.json (written with --no-wall-clock)
results() {
  local name="$1"
  shift
  i=$((i + 1))
  rm -rf "$work/o"
  if "${java[@]}" "$@" --no-wall-clock -q --out "$work/o" > "$work/log" 2>&1; then
    unbuilt < "$work/o/results.json" > "$out/$(printf %02d $i)-$name.txt"
  else
    { echo "failed:"; cat "$work/log"; } > "$out/$(printf %02d $i)-$name.txt"
    failed+=("$name")
  fi
}

for w in mixed pingpong bandwidth gups alltoall traffic iommu-study mpi-latency mpi-bandwidth host-cache; do
  results "run-$w" run "$w"
done
results run-pingpong-2threads run pingpong --system two-groups --threads 2
results run-gups-2threads run gups --system two-groups --threads 2

small=(traffic --topology canonical:p=4,a=8,h=4)
json traffic-ugal-1thread "${small[@]}" --routing ugal --pattern uniform --load 0.5 --measure-us 20 --threads 1 --json
json traffic-ugal-2threads "${small[@]}" --routing ugal --pattern uniform --load 0.5 --measure-us 20 --threads 2 --json
json traffic-ugal-3threads "${small[@]}" --routing ugal --pattern uniform --load 0.5 --measure-us 20 --threads 3 --json
json traffic-minimal-adversarial "${small[@]}" --routing minimal --pattern adversarial --load 0.4 --measure-us 20 --json
json traffic-valiant "${small[@]}" --routing valiant --pattern uniform --load 0.3 --measure-us 20 --json
json traffic-adaptive0-adversarial "${small[@]}" --routing adaptive0 --pattern adversarial --load 0.6 --measure-us 20 \
  --seed 7 --json
json traffic-adaptive3-hotspot "${small[@]}" --routing adaptive3 --pattern hotspot --load 0.3 --measure-us 10 --json
json traffic-ugal-drain "${small[@]}" --routing ugal --pattern uniform --load 0.9 --measure-us 10 --drain --json
json traffic-edison traffic --topology edison --routing adaptive0 --pattern uniform --load 0.2 --measure-us 5 \
  --threads 2 --json
json traffic-full-1thread traffic --topology full --routing adaptive0 --load 0.1 --measure-us 0.3 --warmup-us 0.2 \
  --threads 1 --json
json traffic-full-2threads traffic --topology full --routing adaptive0 --load 0.1 --measure-us 0.3 --warmup-us 0.2 \
  --threads 2 --json

if [ -e "$trace" ]; then
  json replay-amg replay "$trace" --system two-groups --json --out results/replay --force
  json replay-amg-2threads replay "$trace" --system two-groups --threads 2 --json --out results/replay --force
  json replay-amg-random replay "$trace" --system two-groups --mapping random --seed 3 --json \
    --out results/replay --force
else
  # said, so that a comparison of two such directories is not taken for the whole set (both lack the same runs)
  echo "golden-runs: no $trace, the three AMG replay runs are left out" >&2
fi

json iommu-4k iommu --synthetic random:200000 --region 1G --page-size 4K --json
json iommu-2m iommu --synthetic random:200000 --region 1G --page-size 2M --json

i=$((i + 1))
rm -rf "$work/sweep"
if "${java[@]}" sweep --job pingpong --param sizes=8,64,4096 --jobs 2 --no-wall-clock -q --out "$work/sweep" \
  > "$work/log" 2>&1; then
  # in the C locale's byte order: another locale's collation would order the points' files otherwise
  (cd "$work/sweep" 2>/dev/null && find . -type f -name '*.json' -print0 | LC_ALL=C sort -z | xargs -0 cat) \
    | unbuilt > "$out/$(printf %02d $i)-sweep-pingpong.txt"
else
  { echo "failed:"; cat "$work/log"; } > "$out/$(printf %02d $i)-sweep-pingpong.txt"
  failed+=(sweep-pingpong)
fi

# added in stop 58, after the sweep so the first 29 keep their numbers: real cabling, and links failed on it (the
# second fails with a jar older than stop 58, which has no failed links)
json traffic-edison-cabled traffic --topology edison-cabled --routing ugal --pattern uniform --load 0.2 \
  --measure-us 3 --json
json traffic-edison-failed traffic --topology 'edison-cabled+failed=random:1260:blue+failed=random:300:green' \
  --routing minimal --pattern uniform --load 0.2 --measure-us 3 --json
# added in stop 59: the collectives validate checks against CSCS's figures (fails with a jar older than stop 59,
# which has no alltoall or placement parameter)
results run-mpi-collectives-alltoall run mpi-collectives -p nodes=2,6,16 -p engine=off,on -p alltoall=8 \
  -p placement=packed
# added in stop 74, last so the first 32 keep their numbers: the AMG trace beside a second copy of itself (a
# concurrent replay, its fabric with a LinkTally hop listener; fails with a jar older than stop 56, which has no --with)
if [ -e "$trace" ]; then
  json replay-amg-with replay "$trace" --with "$trace" --system two-groups --json --out results/replay --force
else
  echo "golden-runs: no $trace, the concurrent AMG replay is left out" >&2
fi
# added in stop 76, last so the first 33 keep their numbers: the two workloads of `run` the set had left out (fail
# with a jar older than the stops that added them)
results run-mpi-rma run mpi-rma
results run-put-rate run put-rate
echo "golden-runs: $i outputs in $out"
# a run that failed the same way with both jars still compares identical: say so, so it is not taken for a pass
if [ ${#failed[@]} -gt 0 ]; then
  echo "golden-runs: ${#failed[@]} run(s) exited non-zero (their output is the error): ${failed[*]}" >&2
  exit 1
fi
