#!/usr/bin/env bash
# Runs `notes-demo soak-keys` again and again, each run with a fresh seed, and prints the
# failure rate: how many runs lost an acknowledged write (or disagreed), out of how many.
#
#     Examples/Notes/soak-keys-rate.sh [RUNS] [KILLS] [WRITES]
#
# RUNS defaults to 50, KILLS to 20, WRITES to 3000. The example is built once (release). A failed
# run's folder (the cloud file, each device's store, the run's output in output.txt) is kept
# under $SOAK_KEEP (default: a temporary folder, printed), to be read with syncgen-inspect; a
# run that passes leaves nothing. Exits 1 when any run failed.
set -uo pipefail
cd "$(dirname "$0")"

runs=${1:-50}
kills=${2:-20}
writes=${3:-3000}
keep=${SOAK_KEEP:-$(mktemp -d -t notes-soak-keys-rate.XXXXXX)}
mkdir -p "$keep"

swift build -c release --product notes-demo >&2 || exit 2
demo=$(swift build -c release --show-bin-path)/notes-demo

failed=0
for run in $(seq 1 "$runs"); do
    # A seed of its own: the time in microseconds, and the run's number.
    seed=$(( $(date +%s%N) / 1000 + run ))
    folder="$keep/run-$run-seed-$seed"
    output=$("$demo" soak-keys --kills "$kills" --writes "$writes" --seed "$seed" --keep "$folder" 2>&1)
    summary=$(printf '%s\n' "$output" | grep '^notes-soak-keys: ' | tail -n 1)
    if printf '%s\n' "$summary" | grep -q '^notes-soak-keys: ok:'; then
        rm -rf "$folder"
        echo "run $run/$runs (seed $seed): ok"
    else
        failed=$((failed + 1))
        printf '%s\n' "$output" > "$folder/output.txt"
        echo "run $run/$runs (seed $seed): FAILED, kept in $folder"
        printf '%s\n' "$output" | grep '^   ! ' | head -n 5
    fi
done

echo "notes-soak-keys-rate: $failed of $runs runs failed ($(( 100 * failed / runs ))%), $kills kills and at least $writes writes each"
[ "$failed" -eq 0 ] || { echo "failed runs are kept in $keep"; exit 1; }
rmdir "$keep" 2>/dev/null || true
