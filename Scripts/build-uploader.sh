#!/usr/bin/env bash
# Builds `uploader` as the README installs it and prints the executable's
# path: release, the Swift runtime linked in (--static-swift-stdlib), and on
# Linux, where the toolchain links with gold, two flags for gold:
# - its functions in the order of Scripts/uploader-link-order.txt, so the code
#   a run executes sits together instead of across 25 MB of text (each page it
#   touches maps 64 KB around it): 2 MB less memory for a request
#   (Scripts/uploader-link-order.sh writes the file);
# - no symbols exported for dynamic linking (--static-swift-stdlib turns
#   -export-dynamic on): 31,000 symbols the loader searches and 1.7 MB of
#   tables nothing reads.
# They are flags of this build, not of Package.swift, because unsafeFlags
# there would make the package unusable as a dependency; and linker flags
# only, so switching between this build and a plain release build relinks
# instead of compiling everything again.
#
#     cp "$(Scripts/build-uploader.sh)" /usr/local/bin/
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib)
if [[ "$(uname -s)" == Linux && -x /usr/bin/ld.gold ]]; then
    flags+=(
        -Xlinker --no-export-dynamic
        -Xlinker "--section-ordering-file=$PWD/Scripts/uploader-link-order.txt"
    )
fi
swift build "${flags[@]}" --product uploader >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/uploader"
