#!/usr/bin/env bash
# Builds the DocC documentation of every library module with warnings as
# errors (a broken symbol link, or a parameter left out of a doc comment,
# fails), then fails on any public symbol without a doc comment of its own,
# so API added without one is caught where it is merged.
# Output: .build/plugins/Swift-DocC/outputs/<Target>.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(HTTPBody HTTPBodyGoldenFiles RequestBuilder RequestBuilderURLSession RequestBuilderAsyncHTTPClient RequestBuilderCombine ResumableUploads AWSSigning ObjectStorage HTTPBodyTesting RequestBuilderTesting)
target_flags=()
for target in "${targets[@]}"; do target_flags+=(--target "$target"); done

swift package generate-documentation "${target_flags[@]}" --warnings-as-errors

# docc does not fail on a symbol with no comment at all, and its coverage
# report counts what the standard library supplies (`!=`, AsyncSequence's
# methods), so read the symbol graphs the plugin just extracted: a public
# symbol declared in Sources/ needs a comment written in one of our modules
# (a protocol requirement's comment counts for its implementations in our
# own modules, not for witnesses of the standard library's protocols).
python3 - "$PWD" "${targets[@]}" <<'PY'
import glob, json, sys
root, targets = sys.argv[1], sys.argv[2:]
graphs = [path for target in targets
          for path in glob.glob(f"{root}/.build/*/extracted-symbols/*/{target}/*.symbols.json")]
if not graphs:
    sys.exit("error: no symbol graphs found under .build/*/extracted-symbols; has the plugin moved them?")
missing = set()
for path in graphs:
    with open(path) as file:
        graph = json.load(file)
    for symbol in graph["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if f"{root}/Sources/" not in uri or symbol["kind"]["identifier"] == "swift.extension":
            continue  # declared elsewhere; an extension block itself has no page of its own
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        comment = symbol.get("docComment") or {}
        written = any(line.get("text", "").strip() for line in comment.get("lines", []))
        if not written or comment.get("module", targets[0]) not in targets:
            line = symbol["location"]["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            missing.add(f"{uri.split(root + '/', 1)[1]}:{line}: error: public symbol '{name}' has no doc comment")
for message in sorted(missing):
    print(message, file=sys.stderr)
if missing:
    sys.exit(1)
print(f"Documentation built for {', '.join(targets)} with no warnings; every public symbol has a doc comment.")
PY
