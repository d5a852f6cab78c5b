#!/usr/bin/env bash
# Installs uploader's man page and its bash, zsh and fish completions for the
# current user, without root. The installed binary prints all of them
# (`uploader --generate-manual`, `uploader --generate-completion-script
# SHELL`), made from the command's own option declarations and options table,
# so they say what `uploader --help` says; no build is needed
# (docs/uploader.md, "Man page and shell completion").
#
# Usage:
#   Scripts/install-extras.sh                      # for you: ~/.local/share/...
#   PREFIX=/usr/local Scripts/install-extras.sh    # for everyone (write access to PREFIX)
#   UPLOADER=/path/to/uploader Scripts/install-extras.sh   # that binary's
#   OUTPUT=dir Scripts/install-extras.sh           # only generate, into dir
set -euo pipefail
cd "$(dirname "$0")/.."

# The uploader to ask: $UPLOADER, else the one on PATH (installed by
# Scripts/build-uploader.sh), else one built here.
uploader=${UPLOADER:-}
if [ -z "$uploader" ]; then
    for candidate in "$(command -v uploader || true)" .build/release/uploader .build/debug/uploader; do
        if [ -n "$candidate" ] && [ -x "$candidate" ]; then uploader=$candidate; break; fi
    done
fi
[ -n "$uploader" ] || { echo "install-extras: no uploader found: install it (Scripts/build-uploader.sh) or set UPLOADER" >&2; exit 1; }

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT

for shell in bash zsh fish; do
    "$uploader" --generate-completion-script "$shell" > "$staging/uploader.$shell"
done
"$uploader" --generate-manual > "$staging/uploader.1"

if [ -n "${OUTPUT:-}" ]; then
    mkdir -p "$OUTPUT"
    cp "$staging"/uploader.1 "$staging"/uploader.bash "$staging"/uploader.zsh "$staging"/uploader.fish "$OUTPUT"/
    echo "generated uploader.1 and uploader.{bash,zsh,fish} in $OUTPUT"
    exit 0
fi

# Where each goes: XDG data folders for one user, the usual ones under a prefix.
if [ -n "${PREFIX:-}" ]; then
    man_dir=$PREFIX/share/man/man1
    bash_dir=$PREFIX/share/bash-completion/completions
    zsh_dir=$PREFIX/share/zsh/site-functions
    fish_dir=$PREFIX/share/fish/vendor_completions.d
else
    data=${XDG_DATA_HOME:-$HOME/.local/share}
    man_dir=$HOME/.local/share/man/man1
    bash_dir=$data/bash-completion/completions
    zsh_dir=$data/zsh/site-functions
    fish_dir=${XDG_CONFIG_HOME:-$HOME/.config}/fish/completions
fi
install -d "$man_dir" "$bash_dir" "$zsh_dir" "$fish_dir"
install -m 0644 "$staging/uploader.1" "$man_dir/uploader.1"
install -m 0644 "$staging/uploader.bash" "$bash_dir/uploader"
install -m 0644 "$staging/uploader.zsh" "$zsh_dir/_uploader"
install -m 0644 "$staging/uploader.fish" "$fish_dir/uploader.fish"

cat <<EOF
installed:
  $man_dir/uploader.1
  $bash_dir/uploader
  $zsh_dir/_uploader
  $fish_dir/uploader.fish
'man uploader' finds the page when ~/.local/bin is on PATH (man-db looks in
../share/man beside each PATH folder), or add ~/.local/share/man to MANPATH.
zsh: add "fpath=($zsh_dir \$fpath)" before compinit in ~/.zshrc.
bash (with bash-completion 2) and fish load theirs when a new shell starts.
EOF
