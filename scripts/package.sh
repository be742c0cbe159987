#!/usr/bin/env bash
# Packages a release binary built with --static-swift-stdlib (`make deb`, `make dist`):
#   scripts/package.sh deb  BINARY OUTDIR   OUTDIR/aasa-audit_VERSION-REVISION_ARCH.deb, checked by lintian
#   scripts/package.sh dist BINARY OUTDIR   OUTDIR/aasa-audit-VERSION-linux-MACHINE.tar.gz and its .sha256
# Both hold the same files: the binary, the man page, the shell completions, the examples of
# docs/cron.md and the copyright file. The version is the one the binary prints (`--version`),
# so it has one source (AuditOptions.version); the Debian revision is PACKAGE_REVISION (default 1).
set -euo pipefail

usage() { echo "usage: scripts/package.sh deb|dist BINARY OUTDIR" >&2; exit 2; }
[ $# -eq 3 ] || usage
kind=$1 binary=$2 outdir=$3
case "$kind" in deb|dist) ;; *) usage ;; esac
# Both as the caller meant them, before the script works from the repository's root.
binary=$(realpath -e "$binary" 2>/dev/null) || { echo "package.sh: error: $2 does not exist: build it first (make static)" >&2; exit 1; }
outdir=$(realpath -m "$outdir")
cd "$(dirname "$0")/.."
fail() { echo "package.sh: error: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "$1 is missing (Debian package $2): scripts/install-deps.sh --package installs it"; }
need objdump binutils
need strip binutils
if [ "$kind" = deb ]; then
  need dpkg-deb dpkg
  need dpkg-shlibdeps dpkg-dev
  need lintian lintian
fi
[ -x "$binary" ] || fail "$binary is not an executable: build it first (make static)"

version=$("$binary" --version | sed -n '1s/^aasa-audit //p')
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || fail "$binary --version does not start with 'aasa-audit VERSION': '$version'"
revision=${PACKAGE_REVISION:-1}
# Reproducible: every date in the package is the commit's (or SOURCE_DATE_EPOCH's when set).
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
umask 022

# The binary must not reach into the Swift toolchain: no library of it, no search path into it.
dynamic=$(objdump -p "$binary")
needed=$(awk '$1 == "NEEDED" { print $2 }' <<<"$dynamic")
if grep -E 'swift|Foundation|dispatch|BlocksRuntime' <<<"$needed"; then
  fail "$binary needs the Swift libraries above: build it with --static-swift-stdlib (make static)"
fi
if awk '$1 == "RUNPATH" || $1 == "RPATH"' <<<"$dynamic" | grep .; then
  fail "$binary has the library search path above (lintian: custom-library-search-path)"
fi

# The tree both packages hold, laid out as installed under /usr. debian/control beside it is for
# dpkg-shlibdeps, which maps each library the binary needs to the package that ships it.
work="$outdir/work"
rm -rf "$work"
# Only the newest package of each kind stays, so the tests find one.
if [ "$kind" = deb ]; then rm -f "$outdir"/aasa-audit_*.deb; else rm -f "$outdir"/aasa-audit-*.tar.gz "$outdir"/aasa-audit-*.tar.gz.sha256; fi
install -d "$outdir"
stage="$work/debian/aasa-audit"
doc="$stage/usr/share/doc/aasa-audit"
install -d "$stage/usr/bin" "$stage/usr/share/man/man1" "$doc/examples"
install -m 755 "$binary" "$stage/usr/bin/aasa-audit"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/aasa-audit"
gzip -9n <docs/aasa-audit.1 >"$stage/usr/share/man/man1/aasa-audit.1.gz"
install -m 644 packaging/debian/copyright "$doc/copyright"
install -m 644 examples/aasa-audit.service examples/aasa-audit.timer examples/crontab "$doc/examples/"

# The completions come from the binary (`aasa-audit completions SHELL`, generated from its option
# tables), so they list exactly the options this binary takes.
completions=(
  "bash usr/share/bash-completion/completions/aasa-audit"
  "zsh usr/share/zsh/vendor-completions/_aasa-audit"
  "fish usr/share/fish/vendor_completions.d/aasa-audit.fish"
)
for entry in "${completions[@]}"; do
  read -r shell path <<<"$entry"
  install -d "$stage/$(dirname "$path")"
  "$binary" completions "$shell" >"$stage/$path" || fail "$binary completions $shell failed"
  [ -s "$stage/$path" ] || fail "$binary completions $shell printed nothing"
  chmod 644 "$stage/$path"
done

if [ "$kind" = deb ]; then
  # dpkg-shlibdeps finds the package's root by its DEBIAN folder.
  install -d "$stage/DEBIAN"
  printf 'Source: aasa-audit\n\nPackage: aasa-audit\nArchitecture: any\n' >"$work/debian/control"
  shlibs=$(cd "$work" && dpkg-shlibdeps -O -e debian/aasa-audit/usr/bin/aasa-audit) \
    || fail "dpkg-shlibdeps could not map the binary's libraries to packages (above)"
  depends=${shlibs#shlibs:Depends=}
  grep -qi swift <<<"$depends" && fail "Depends names the Swift toolchain: $depends"
  # Not a shared library: the system's CA certificates, which libcurl only recommends and without
  # which no TLS check of an audit can pass.
  depends="$depends, ca-certificates"

  install -d "$stage/usr/share/lintian/overrides"
  install -m 644 packaging/debian/lintian-overrides "$stage/usr/share/lintian/overrides/aasa-audit"
  changelog_date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
  commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo "an unknown commit")
  printf '%s\n' "aasa-audit ($version-$revision) unstable; urgency=medium" "" \
    "  * Built from aasa-audit $version, git commit $commit." "" \
    " -- aasa-audit maintainers <maintainers@users.noreply.a-seed-f416a43c.example>  $changelog_date" \
    | gzip -9n >"$doc/changelog.Debian.gz"
  chmod 644 "$doc/changelog.Debian.gz"

  arch=$(dpkg --print-architecture)
  size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
  sed -e "s/@VERSION@/$version-$revision/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$size/" \
      -e "s/@DEPENDS@/$depends/" packaging/debian/control.in >"$stage/DEBIAN/control"
  (cd "$stage" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
  chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
  find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

  deb="$outdir/aasa-audit_${version}-${revision}_${arch}.deb"
  dpkg-deb --build --root-owner-group -Zxz "$stage" "$deb" >/dev/null
  echo "Depends: $depends"
  # Errors and warnings fail the build; every tag that remains is overridden with its reason
  # in packaging/debian/lintian-overrides.
  lintian --fail-on error,warning --info "$deb" >&2 || fail "lintian found problems in $deb (above)"
  echo "$deb"
else
  machine=$(uname -m)
  name="aasa-audit-$version-linux-$machine"
  tree="$work/$name"
  # The same files as the package, laid out as a prefix: untar into /usr/local or anywhere.
  cp -a "$stage/usr" "$tree"
  tarball="$outdir/$name.tar.gz"
  tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
      -C "$work" -cf - "$name" | gzip -9n >"$tarball"
  (cd "$outdir" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
  echo "$tarball"
fi
rm -rf "$work"
