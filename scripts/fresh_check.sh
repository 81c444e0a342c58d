#!/usr/bin/env bash
# make fresh-check: prove that the README's two commands work on a bare Debian 12.
#
#   1. Build once, and keep, a minimal Debian 12 (bookworm) tree with
#      `debootstrap --variant=minbase`, plus python3, git, make and ca-certificates:
#      what a new user starts from.
#   2. Copy that tree for this run; give it this machine's apt sources, pip and npm
#      configuration, CA bundle and DNS set-up (and the local package folders the
#      pip configuration names), so that apt and pip inside reach the same package
#      registries as outside; bind-mount /proc and /dev.
#   3. `git clone` the project's committed HEAD into it and run, inside,
#      `make test`, then `make lecture QUALITY=low`, and check out/lecture.mp4.
#   4. Print the tail of the log; exit with the commands' status; unmount
#      everything and remove the copy, whatever happens.
#
# Run as root. Takes many minutes (set-up installs LaTeX and builds Manim), so it
# is not part of `make test`; run it before calling a change to scripts/setup.sh,
# pyproject.toml or the Makefile done.
#
# Environment:
#   FRESH_CHECK_DIR   where the kept base tree and the run copies live
#                     (default /var/tmp/attention-lecture-fresh-check)
#   FRESH_CHECK_KEEP  1 keeps this run's copy (for a look inside after a failure)
#   DEBIAN_MIRROR     the mirror debootstrap uses (default: this machine's first apt URI)
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
root_dir=${FRESH_CHECK_DIR:-/var/tmp/attention-lecture-fresh-check}
base="$root_dir/bookworm-base"
run_dir="$root_dir/run-$$"
tree="$run_dir/root"
log="$run_dir/fresh-check.log"

say() { echo "fresh-check: $*"; }
die() { echo "fresh-check: $*" >&2; exit 2; }

[[ $(id -u) -eq 0 ]] || die "must run as root (it builds a Debian tree and chroots into it)"
git -C "$project" rev-parse --verify HEAD >/dev/null 2>&1 || die "$project has no commit to clone"

first_apt_uri() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2; exit}')
  [[ -n "$uri" ]] || uri=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2; exit}')
  echo "${uri:-http://deb.debian.org/debian}"
}

build_base() {
  [[ -x "$base/usr/bin/python3" && -x "$base/usr/bin/git" ]] && return 0
  if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  local mirror=${DEBIAN_MIRROR:-$(first_apt_uri)}
  say "building the base tree once: debootstrap --variant=minbase bookworm ($mirror)"
  rm -rf "$base.partial"
  mkdir -p "$root_dir"
  debootstrap --variant=minbase --include=python3,git,make,ca-certificates \
    bookworm "$base.partial" "$mirror" >"$root_dir/debootstrap.log" 2>&1 ||
    { tail -20 "$root_dir/debootstrap.log" >&2; die "debootstrap failed (log: $root_dir/debootstrap.log)"; }
  mv "$base.partial" "$base"
}

mounted=()
cleanup() {
  local status=$?
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -l "${mounted[i]}" 2>/dev/null || true
  done
  if [[ "${FRESH_CHECK_KEEP:-0}" == 1 ]]; then
    say "kept $run_dir"
  elif [[ -d "$run_dir" ]]; then
    # Never delete through a mount that is still there.
    if ! grep -qs " $tree" /proc/mounts; then rm -rf "$run_dir"; fi
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bind() { # bind SRC [ro]: mount SRC at the same path inside the tree
  local src=$1 dst="$tree$1"
  mkdir -p "$dst"
  mount --bind "$src" "$dst"
  mounted+=("$dst")
  if [[ "${2:-}" == ro ]]; then mount -o remount,bind,ro "$dst"; fi
}

copy_in() { # copy_in FILE: the same path inside the tree
  [[ -e "$1" ]] || return 0
  mkdir -p "$tree$(dirname "$1")"
  rm -f "$tree$1" # never write through a link in the tree (it may point out of it)
  cp -L "$1" "$tree$1"
}

build_base
mkdir -p "$run_dir"
say "copying the base tree"
cp -a "$base" "$tree"

# apt: the same sources and settings as this machine.
rm -f "$tree/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
  /etc/apt/apt.conf.d/*; do
  [[ -f "$f" ]] && copy_in "$f"
done
copy_in /etc/resolv.conf
copy_in /etc/hosts

# pip: every configuration file pip reads here, the CA bundle, and the local
# folders those files (or PIP_* variables) name.
pip_files=$(python3 -m pip config debug 2>/dev/null | awk '/, exists: True/ {sub(/,$/, "", $1); print $1}')
for f in $pip_files; do copy_in "$f"; done
ca_bundle=$(python3 -c 'import ssl; print(ssl.get_default_verify_paths().openssl_cafile)' 2>/dev/null || true)
for f in /etc/ssl/certs/ca-certificates.crt "$ca_bundle" ${PIP_CERT:-}; do
  [[ -n "$f" && -f "$f" ]] && copy_in "$f"
done
pip_paths=$( (python3 -m pip config list 2>/dev/null; env | grep '^PIP_') |
  grep -oE "(file://)?/[^ '\"]+" | sed 's#^file://##' | sort -u)
for p in $pip_paths; do
  # A local index (.../simple) links to files beside it: bring its parent folder.
  [[ "$(basename "$p")" == simple ]] && p=$(dirname "$p")
  if [[ -d "$p" ]]; then bind "$p" ro; elif [[ -f "$p" ]]; then copy_in "$p"; fi
done

# npm (set-up fetches the Kokoro voices with it): the same configuration files.
for f in /root/.npmrc /etc/npmrc /usr/etc/npmrc; do copy_in "$f"; done

bind /proc
bind /dev

say "cloning the committed HEAD ($(git -C "$project" rev-parse --short HEAD))"
git clone -q --no-hardlinks "$project" "$tree/src/project"

pip_env=()
while IFS= read -r line; do pip_env+=("$line"); done < <(env | grep '^PIP_' || true)

say "running make test, then make lecture QUALITY=low, inside (log: $log)"
set +e
chroot "$tree" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${pip_env[@]}" \
  /bin/bash -c 'set -e; cd /src/project; make test; make lecture QUALITY=low; test -s out/lecture.mp4 && echo "fresh-check: out/lecture.mp4 written"' \
  >"$log" 2>&1
status=$?
set -e

tail -40 "$log"
cp "$log" "$root_dir/last.log"
if ((status == 0)); then
  say "PASS: both README commands succeed on a bare Debian 12 (full log: $root_dir/last.log)"
else
  say "FAIL (exit $status; full log: $root_dir/last.log)"
fi
exit "$status"
