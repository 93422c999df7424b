#!/usr/bin/env bash
# Build the release brain, run `pbrain-gorin bench` twice and check the signature.
#
# Usage: scripts/bench.sh [EXPECTED_NODES]
#
# The bench must print a line `Bench: <nodes> nodes <nps> nps`, and the node count must be the
# same in both runs (the search is deterministic). With EXPECTED_NODES (e.g. the `Bench: N` of
# the commit message), the count must also equal it. Prints the count; exits 1 on any mismatch.
set -euo pipefail

cd "$(dirname "$0")/.."
if ! command -v cargo >/dev/null 2>&1 && [ -f "${HOME:-/root}/.cargo/env" ]; then
    # shellcheck disable=SC1091
    source "${HOME:-/root}/.cargo/env"
fi

expected="${1:-}"
if [ -n "$expected" ] && ! [[ "$expected" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 [EXPECTED_NODES]" >&2
    exit 2
fi

echo "== cargo build --release"
cargo build --release --quiet

bin=target/release/pbrain-gorin
nodes=()
for run in 1 2; do
    # stdout and stderr together: the line is looked for in both. 10 minutes at most.
    status=0
    output=$(timeout 600 "$bin" bench 2>&1) || status=$?
    if [ "$status" -ne 0 ]; then
        echo "bench run $run failed (exit status $status):" >&2
        printf '%s\n' "$output" | tail -n 20 >&2
        exit 1
    fi
    line=$(printf '%s\n' "$output" | grep -E '^Bench: [0-9]+ nodes [0-9]+ nps' | tail -n 1 || true)
    if [ -z "$line" ]; then
        echo "bench run $run printed no 'Bench: <nodes> nodes <nps> nps' line; its output ends:" >&2
        printf '%s\n' "$output" | tail -n 20 >&2
        exit 1
    fi
    echo "run $run: $line"
    nodes+=("$(printf '%s\n' "$line" | awk '{print $2}')")
done

if [ "${nodes[0]}" != "${nodes[1]}" ]; then
    echo "FAIL: bench is not deterministic: ${nodes[0]} vs ${nodes[1]} nodes" >&2
    exit 1
fi
if [ -n "$expected" ] && [ "${nodes[0]}" != "$expected" ]; then
    echo "FAIL: bench signature ${nodes[0]} differs from the expected $expected" >&2
    exit 1
fi
echo "Bench: ${nodes[0]}"
