#!/usr/bin/env bash
# What a newcomer gets: a fresh Debian root (debootstrap --variant=minbase,
# from this machine's own apt sources), a clone of this checkout in it, and
# the README's two commands run there as root (ci/suite.sh, then
# ci/test.sh), each installing what it needs.  The closing lines go to
# results/fresh-RELEASE.txt.
# Usage: ci/fresh.sh bookworm|trixie [ROOT]   (ROOT: default build-fresh/RELEASE)
# Needs root (debootstrap, chroot, bind mounts) and debootstrap.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: ci/fresh.sh bookworm|trixie [ROOT]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
rel=$1
case $rel in bookworm | trixie) ;; *) usage ;; esac
root=${2:-build-fresh/$rel}
[ "$(id -u)" -eq 0 ] || { echo "ci/fresh.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "ci/fresh.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
[ -d ../shared ] || { echo "ci/fresh.sh: ../shared is missing (CI lays it beside the checkout)" >&2; exit 2; }

# The machine's Debian mirrors: the first URI of its debian and
# debian-security sources (deb822 or one-line form).
sources=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
mirror=$(printf '%s\n' "$sources" | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -1 | tr -d ' ')
security=$(printf '%s\n' "$sources" | grep -oE 'https?://[^ ]*/debian-security/?( |$)' | head -1 | tr -d ' ')
[ -n "$mirror" ] || { echo "ci/fresh.sh: no Debian mirror in this machine's apt sources" >&2; exit 2; }

mounted=()
cleanup() {
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT

if [ ! -x "$root/usr/bin/apt-get" ]; then
	mkdir -p "$root"
	debootstrap --variant=minbase "$rel" "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
		{ echo "ci/fresh.sh: debootstrap failed, see $root.debootstrap.log" >&2; exit 1; }
fi
# The suites this machine's apt has, for the release: main, updates, security.
{
	echo "deb $mirror $rel main"
	echo "deb $mirror $rel-updates main"
	[ -z "$security" ] || echo "deb $security $rel-security main"
} >"$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for m in proc sys dev dev/pts; do
	mkdir -p "$root/$m"
	mount --bind "/$m" "$root/$m"
	mounted+=("$root/$m")
done

# A clone of the committed tree (what CI gets) and shared/ beside it.
rm -rf "$root/src"
mkdir -p "$root/src"
git clone -q . "$root/src/vkqs"
rev=$(git -C "$root/src/vkqs" rev-parse --short HEAD)
cp -r ../shared "$root/src/shared"
out=results/fresh-$rel.txt
log=$root.log
start=$(date +%s)
set +e
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	bash -c 'cd /src/vkqs && ci/suite.sh' >"$log" 2>&1
rc1=$?
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	bash -c 'cd /src/vkqs && ci/test.sh' >>"$log" 2>&1
rc2=$?
set -e
end=$(date +%s)
{
	echo "ci/fresh.sh $rel: a debootstrap --variant=minbase root ($mirror; $rel, $rel-updates, $rel-security), $(date -u +%Y-%m-%d), vkqs $rev"
	chroot "$root" sh -c '. /etc/os-release; echo "$PRETTY_NAME"; gcc --version | head -1; dpkg-query -W -f "\${Package} \${Version}\n" libvulkan1 mesa-vulkan-drivers vulkan-validationlayers chromium-common 2>/dev/null'
	echo "== ci/suite.sh: exit $rc1"
	grep -E '^[0-9]+ cases on |^(PASS|FAIL|INCOMPLETE): ' "$log" | head -2
	echo "== ci/test.sh: exit $rc2"
	grep -E 'tests passed|tests failed|Total Test time|^== [^:]*$|no clang|^Done' "$log" | tail -20
	echo "== $((end - start)) s in all"
} >"$out"
cat "$out"
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ]
