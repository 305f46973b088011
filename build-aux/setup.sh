# Sourced by run.sh and test.sh: install what is missing, configure, build.
# Usage: adbscope_setup BUILDDIR [meson options…]

adbscope_missing_packages ()
{
  local pkg missing=()
  while read -r pkg; do
    case "$pkg" in ''|'#'*) continue ;; esac
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done < "$ADBSCOPE_SRC/build-aux/debian-packages.txt"
  echo "${missing[@]:-}"
}

adbscope_install_deps ()
{
  local missing
  missing=$(adbscope_missing_packages)
  [ -z "$missing" ] && return 0
  echo "Installing missing Debian packages: $missing" >&2
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo"
    else
      echo "error: these packages are missing and I am not root (and there is no sudo): $missing" >&2
      return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  # tshark (wireshark-common) asks whether non-root users may capture:
  # answer "no" up front so the install never stops at a prompt.
  if command -v debconf-set-selections >/dev/null 2>&1; then
    echo "wireshark-common wireshark-common/install-setuid boolean false" \
      | $sudo debconf-set-selections >&2 || true
  fi
  # Packages named PKG:ARCH (the cross builds' target libraries) need their
  # architecture known to dpkg before apt-get update reads its lists.
  local pkg arch
  for pkg in $missing; do
    case "$pkg" in
      *:*)
        arch=${pkg##*:}
        if [ "$arch" != "$(dpkg --print-architecture)" ] \
            && ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
          echo "Adding the dpkg architecture $arch (for $pkg)" >&2
          $sudo dpkg --add-architecture "$arch" || return 1
        fi
        ;;
    esac
  done
  if ! $sudo apt-get update -q >&2; then
    echo "error: apt-get update failed; install by hand: apt-get install $missing" >&2
    return 1
  fi
  # shellcheck disable=SC2086
  if ! $sudo apt-get install -y -q --no-install-recommends $missing >&2; then
    echo "error: apt-get install failed; install by hand: apt-get install $missing" >&2
    return 1
  fi
}

adbscope_build ()
{
  local builddir="$1"; shift
  if [ ! -f "$builddir/build.ninja" ]; then
    meson setup "$builddir" "$ADBSCOPE_SRC" "$@" >&2 || return 1
  fi
  meson compile -C "$builddir" >&2 || return 1
}

# agent/cross for one target: adbscope_build_cross BUILDDIR TARGET, TARGET
# one of build-aux/cross/*.ini (aarch64, armhf, s390x, mips).
adbscope_build_cross ()
{
  local builddir="$1" target="$2"
  if [ ! -f "$builddir/build.ninja" ]; then
    meson setup "$builddir" "$ADBSCOPE_SRC/agent/cross" \
      --cross-file "$ADBSCOPE_SRC/build-aux/cross/$target.ini" >&2 || return 1
  fi
  meson compile -C "$builddir" >&2 || return 1
}
