#!/usr/bin/env bash
# Prints the path of a Python that has the test servers' packages (aiohttp-tus,
# moto, botocore: Tests/Servers/requirements.txt), making it first if needed: a
# virtual environment in .build/test-python, installed from PyPI once and
# again only when the requirements change. The tests call this on first use,
# so `swift test` on a fresh clone needs nothing else; scripts and people
# running a test server by hand use it too:
#
#     "$(Scripts/test-python.sh)" Tests/Servers/tus_server.py /tmp/tus-uploads
#
# Parallel callers (test processes) wait on one lock rather than install twice.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
home="$root/.build/test-python"
venv="$home/venv"
requirements="$root/Tests/Servers/requirements.txt"
mkdir -p "$home"

exec 9>"$home/lock"
flock 9

# The stamp is a copy of the requirements the environment was made from,
# written last: an install that was cut short leaves none.
if [[ -x "$venv/bin/python" ]] && cmp -s "$requirements" "$venv/requirements.txt"; then
    echo "$venv/bin/python"
    exit 0
fi

echo "Installing the test servers' Python packages into $venv (once; about a minute)" >&2
if ! python3 -m venv --clear "$venv" >&2; then
    echo "error: python3 -m venv could not make $venv (on Debian: apt-get install python3-venv)" >&2
    exit 1
fi
if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2; then
    echo "error: pip could not install Tests/Servers/requirements.txt from the Python Package Index (PyPI): is it reachable from this machine?" >&2
    exit 1
fi
cp "$requirements" "$venv/requirements.txt"
echo "$venv/bin/python"
