#!/usr/bin/env bash
# Builds `uploader` as the README installs it and prints the executable's
# path: release, the Swift runtime linked in (--static-swift-stdlib), and on
# Linux these settings:
# - every function in a section of its own (-function-sections for Swift,
#   -ffunction-sections and -fdata-sections for C), so the linker can move
#   each one: without it a Swift file's functions share one section and
#   move together, and only a fifth of the functions the order file names
#   were placed where it says;
# - its functions in the order of Scripts/uploader-link-order.txt, so the code
#   a run executes sits together instead of across 25 MB of text (each page
#   it touches maps 64 KB around it) (Scripts/uploader-link-order.sh writes
#   the file);
# - the compiler's private helpers, which have no symbol the order file could
#   name, in one block before the rest (Scripts/uploader-private-code.ld):
#   where their object files put them, the few a run executes sat in about
#   40 windows of 64 KB of cold code;
# - generic types' metadata made by their accessors, which are handed the
#   witness tables the compiler already knows, instead of from mangled
#   names (-disable-concrete-type-metadata-mangled-name-accessors): the
#   runtime checks a mangled name's generic requirements by looking each
#   conformance up, and its first lookup of each scans all 7,000 conformance
#   records, 40 % of a tiny upload's instructions;
# - relative relocations packed (-z pack-relative-relocs): the loader reads a
#   23 KB table instead of a 2.8 MB one of 117,000 entries at every start
#   (needs glibc 2.36, which the linker records in the binary);
# - no symbols exported for dynamic linking (--static-swift-stdlib turns
#   -export-dynamic on): 31,000 symbols the loader searches and 1.7 MB of
#   tables nothing reads;
# - GCC's C++ library linked in from its archive (libstdc++.a, installed
#   with the toolchain's libstdc++-dev), as the Swift runtime is, instead of
#   loaded: the runtime needs a few of its functions, but loading
#   libstdc++.so resolves thousands of its own symbols at every start,
#   leaving 1.4 MB of its symbol tables and code resident (a trivial GET
#   peaked at 15.0-15.2 MB so, 13.6-14.0 MB linked in; the real tree of
#   Benchmarks/compare.sh at 25.1-25.3 MB so, 24.1-24.3 MB linked in).
#   Without the archive, -lstdc++ links the shared library as before;
# - FoundationEssentials searched before Foundation. Neither the uploader
#   nor its libraries use the whole of Foundation (ICU's data,
#   CoreFoundation, and 1,800 conformance records that the Swift runtime
#   scans at every first type lookup), but FoundationEssentials leaves
#   some generic specializations to the linker as weak symbols, and with
#   -lFoundation first on the command line lld took one from Foundation's
#   archive, whose member pulled in all the rest. Searched first, the
#   binary went from 145 MB to 97 MB and 8,783 conformance records to
#   6,987: a tiny upload took 14.7 ms instead of 17.2 (medians of 21), and
#   the real tree peaked at 22.5-22.7 MB instead of 23.8-24.0. A file that
#   uses Foundation itself (NSError, JSONSerialization, DateFormatter,
#   String.contains(String) with Foundation imported) links it again;
#   FoundationLinkTests fails on such a reference in the objects.
# The order needs lld: gold, which the toolchain's clang runs, ignores its
# --section-ordering-file for this link (the functions stay in input order,
# checked with `nm -n`). The toolchain ships ld.lld, but choosing it with
# -use-ld or a toolset changes the compiler's command line and so rebuilds
# every module; instead the link runs with a directory first on PATH whose
# `ld.gold` runs the toolchain's ld.lld with the same arguments (lld takes
# gold's). Without ld.lld the build links with gold, in input order.
# They are settings of this build, not of Package.swift, because unsafeFlags
# there would make the package unusable as a dependency. Since the compiler
# flags differ from a plain release build's, this build has its own build
# folder (.build/installed), so neither rebuilds the other: its first build
# takes as long as a first release build.
#
#     cp "$(Scripts/build-uploader.sh)" /usr/local/bin/
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib --scratch-path "$PWD/.build/installed")
if [[ "$(uname -s)" == Linux ]]; then
    flags+=(
        -Xswiftc -Xfrontend -Xswiftc -function-sections
        -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
        -Xcc -ffunction-sections -Xcc -fdata-sections
        -Xlinker --no-export-dynamic
    )
    lld="$(dirname "$(readlink -f "$(command -v swift)")")/ld.lld"
    if [[ -x "$lld" ]]; then
        shim=$(mktemp -d "${TMPDIR:-/tmp}/uploader-link.XXXXXX")
        trap 'rm -rf "$shim"' EXIT
        # The shim also links GCC's C++ library in when its archive is
        # installed (libstdc++-dev): -lstdc++ becomes the archive's path; and
        # it puts -lFoundationEssentials before -lFoundation (see above).
        archive=$("$(dirname "$lld")/clang" -print-file-name=libstdc++.a 2> /dev/null || true)
        [[ "$archive" == /* && -f "$archive" ]] || archive=-lstdc++
        cat > "$shim/ld.gold" <<EOF
#!/bin/sh
# clang passes a long command line in a response file of quoted arguments.
for argument in "\$@"; do
    shift
    case "\$argument" in
    -lstdc++) argument="$archive" ;;
    @*) sed -i -e 's|"-lstdc++"|"$archive"|g' -e 's|"-lFoundation"|"-lFoundationEssentials" "-lFoundation"|' "\${argument#@}" ;;
    esac
    set -- "\$@" "\$argument"
done
exec "$lld" "\$@"
EOF
        chmod +x "$shim/ld.gold"
        export PATH="$shim:$PATH"
        flags+=(
            -Xlinker "--symbol-ordering-file=$PWD/Scripts/uploader-link-order.txt"
            -Xlinker --no-warn-symbol-ordering
            -Xlinker -z -Xlinker pack-relative-relocs
            -Xlinker -T -Xlinker "$PWD/Scripts/uploader-private-code.ld"
        )
    fi
fi
swift build "${flags[@]}" --product uploader >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/uploader"
