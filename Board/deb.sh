#!/usr/bin/env bash
# Debian packages of glide and of apps built on it (issue 62): what `apt install` puts on a board
# so that it runs the kiosk under systemd as a well-behaved Debian service does.
#
#   Board/deb.sh [--arch amd64|arm64] [--app DIR]    writes dist/NAME_VERSION_ARCH.deb, its path last
#
# NAME is glide, or the app's executable in lower case (departures for Examples/Departures);
# VERSION is GlideVersion.version (Sources/AppContract/Version.swift). The package holds:
#   /usr/bin/NAME                          the stripped static board build: glide as Board/vboard.sh
#                                          builds it (amd64) or Board/cross.sh (arm64); an app as
#                                          Board/app-build.sh builds it
#   /usr/share/NAME/Fonts (glide: content) what the binary reads, named by the unit's Environment=
#   /lib/systemd/system/glide@NAME.service Board/glide@.service made an instance unit for NAME: a file
#                                          named for its instance needs no template, so glide's and
#                                          the apps' packages never ship the same path
#   /lib/udev/rules.d/70-glide-NAME.rules  Board/70-glide.rules (same rules, a name of its own)
#   /etc/glide/NAME.conf                   Board/config.example, a conffile
# and maintainer scripts that do what debhelper's would: a system user `glide` (groups video and
# input), /var/lib/glide/NAME (the unit's StateDirectory) with the remote API's certificate made at
# install unless the config names one, the unit enabled on the first install, restarted on upgrade,
# stopped on removal; a purge takes the config, the state, the certificate, the cache and the enablement.
#
# Environment: DEB_BIN (package this binary instead of building: Board/image.sh hands its own),
# DEB_VERSION (another version, e.g. 0.6.0+test1 for the upgrade test), DEB_MAINTAINER,
# DEB_DIST (the folder to write to, default dist), DEB_COMPRESSION (dpkg-deb's -Z and -z, default
# "xz": the smallest, about 14 s for glide; "xz -z1" takes 2 s, for tests; lintian refuses zstd),
# APP_BUILD_SCRATCH (as Board/app-build.sh),
# DEB_LINTIAN=1 (run lintian on the result: no errors, or the script fails).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
usage() { echo "usage: $0 [--arch amd64|arm64] [--app DIR]" >&2; exit 2; }
step() { printf '== %s (%ss)\n' "$*" "$SECONDS" >&2; }
die() { echo "deb.sh: $*" >&2; exit 1; }
ARCH=amd64; APP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) [ $# -ge 2 ] || usage; ARCH=$2; shift 2 ;;
        --app) [ $# -ge 2 ] || usage; APP=$(cd "$2" 2>/dev/null && pwd) || die "no package folder $2"; shift 2 ;;
        *) usage ;;
    esac
done
# Debian's tools, installed when missing as Board/image.sh and Board/cross.sh do.
missing=()
command -v dpkg-shlibdeps >/dev/null || missing+=(dpkg-dev)
command -v readelf >/dev/null || missing+=(binutils)
[ "${DEB_LINTIAN:-0}" != 1 ] || command -v lintian >/dev/null || missing+=(lintian)
[ "$ARCH" != arm64 ] || command -v aarch64-linux-gnu-strip >/dev/null || missing+=(binutils-aarch64-linux-gnu)
if [ ${#missing[@]} -gt 0 ]; then
    step "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        die "could not install ${missing[*]}"
fi
case "$ARCH" in
    amd64) GNU_ARCH=x86_64; MACHINE="X86-64"; STRIP=strip ;;
    arm64) GNU_ARCH=aarch64; MACHINE="AArch64"; STRIP=aarch64-linux-gnu-strip ;;
    *) usage ;;
esac
VERSION=${DEB_VERSION:-$(sed -n 's/.*static let version = "\([^"]*\)".*/\1/p' "$ROOT/Sources/AppContract/Version.swift")}
[ -n "$VERSION" ] || die "no version in Sources/AppContract/Version.swift"
MAINTAINER=${DEB_MAINTAINER:-Glide maintainers <glide@example.com>}
. "$HERE/size-flags.sh"   # GLIDE_COMMIT, and the flags of every board build

# --- the binary: the board builds the other scripts make ----------------------------------------
if [ -n "$APP" ]; then
    PRODUCT=$(basename "$APP")
    NAME=$(echo "$PRODUCT" | tr '[:upper:]_' '[:lower:]-')
else
    PRODUCT=glide; NAME=glide
fi
[[ "$NAME" =~ ^[a-z0-9][a-z0-9+.-]+$ ]] || die "'$NAME' is no Debian package name"
WORK=$ROOT/.build-deb/${NAME}_$ARCH
rm -rf "$WORK"; mkdir -p "$WORK"
if [ -n "${DEB_BIN:-}" ]; then
    BIN=$DEB_BIN
elif [ -n "$APP" ]; then
    step "building $PRODUCT for $GNU_ARCH (Board/app-build.sh)"
    app_arch=(); [ "$ARCH" = arm64 ] && app_arch=(--arch aarch64)
    BIN=$("$HERE/app-build.sh" "$APP" "${app_arch[@]}" 2>"$WORK/build.log" | tail -1) ||
        { tail -20 "$WORK/build.log" >&2; die "the app's build failed (log: $WORK/build.log)"; }
elif [ "$ARCH" = arm64 ]; then
    step "building glide for aarch64 (Board/cross.sh)"
    BIN=$("$HERE/cross.sh" aarch64 2>"$WORK/build.log" | tail -1) ||
        { tail -20 "$WORK/build.log" >&2; die "the aarch64 build failed (log: $WORK/build.log)"; }
else
    # The board build of Board/vboard.sh and Board/image.sh, in their folder: nothing to do when
    # they built it.
    step "building glide (release, static Swift runtime, .build-board)"
    board_build=(swift build -c release --static-swift-stdlib --product glide --scratch-path "$ROOT/.build-board" "${BOARD_SIZE_FLAGS[@]}")
    ( cd "$ROOT" && stable_env "${board_build[@]}" > "$WORK/build.log" 2>&1 ) ||
        { grep -E "error" "$WORK/build.log" | head -20 >&2; die "the build failed (log: $WORK/build.log)"; }
    BIN=$(cd "$ROOT" && stable_env "${board_build[@]}" --show-bin-path)/glide
fi
[ -x "$BIN" ] || die "no executable $BIN"
readelf -h "$BIN" | grep -q "Machine: *.*$MACHINE" || die "$BIN is not an $ARCH binary"

# --- the tree ------------------------------------------------------------------------------------
# In debian/NAME under the work folder, where dpkg-shlibdeps expects a package's files.
P=$WORK/debian/$NAME
step "staging $NAME $VERSION for $ARCH"
install -d "$P/usr/bin" "$P/usr/share/$NAME" "$P/usr/share/doc/$NAME" "$P/lib/systemd/system" \
    "$P/lib/udev/rules.d" "$P/etc/glide" "$P/DEBIAN" "$P/usr/share/lintian/overrides"
# Stripped as dh_strip does: no symbols, no .comment or .note (the build id stays).
"$STRIP" --remove-section=.comment --remove-section=.note -o "$P/usr/bin/$NAME" "$BIN"; chmod 0755 "$P/usr/bin/$NAME"
# The fonts glide renders with (its own, never the system's: the pixels are those it was tested
# with), and glide's catalog content.
cp -r "$ROOT/Fonts" "$P/usr/share/$NAME/Fonts"
ENVIRONMENT="GLIDE_FONTS=/usr/share/$NAME/Fonts"
if [ -z "$APP" ]; then
    cp -r "$HERE/content" "$P/usr/share/$NAME/content"
    ENVIRONMENT="$ENVIRONMENT GLIDE_CONTENT=/usr/share/$NAME/content"
fi

# The unit: Board/glide@.service with its reasoning kept, for this one instance. Its header (how
# to install by hand) becomes what the package did; the paths become the package's.
UNIT=glide@$NAME.service
{
    echo "# glide@$NAME, installed by the $NAME package (Board/deb.sh, from Board/glide@.service):"
    echo "# /usr/bin/$NAME board on the console at boot, as the system user glide. Settings:"
    echo "# /etc/glide/$NAME.conf; state (the remote API's certificate): /var/lib/glide/$NAME;"
    echo "# log: journalctl -u glide@$NAME. Local changes: systemctl edit glide@$NAME."
    sed -n '/^\[Unit\]/,$p' "$HERE/glide@.service" | sed \
        -e "s|^Documentation=.*|Documentation=file:///usr/share/doc/$NAME/README.Board.md.gz|" \
        -e "s|^ExecStart=.*|ExecStart=/usr/bin/$NAME board --config /etc/glide/$NAME.conf|" \
        -e "s|^# /var/lib/glide, the glide user's own|# /var/lib/glide/$NAME, the glide user's own|" \
        -e "s|^StateDirectory=glide$|StateDirectory=glide/$NAME|" \
        -e "s|^User=glide$|User=glide\\
# The fonts (and content) the package ships beside the binary, which looks for them above itself\\
# (/usr/bin) otherwise.\\
Environment=$ENVIRONMENT|"
} > "$P/lib/systemd/system/$UNIT"
grep -q "^ExecStart=/usr/bin/$NAME " "$P/lib/systemd/system/$UNIT" && grep -q "^StateDirectory=glide/$NAME$" "$P/lib/systemd/system/$UNIT" &&
    grep -q "^Environment=GLIDE_FONTS" "$P/lib/systemd/system/$UNIT" || die "Board/glide@.service changed: the unit's edits no longer apply"
cp "$HERE/70-glide.rules" "$P/lib/udev/rules.d/70-glide-$NAME.rules"

# The config, as the example has it; an app shows itself, whatever `app` says.
sed -e "s|glide board --config /etc/glide/board.conf|$NAME board --config /etc/glide/$NAME.conf|" "$HERE/config.example" \
    > "$P/etc/glide/$NAME.conf"
if [ -n "$APP" ]; then
    sed -i -e 's|^# What to show: the app.s name and its content manifest.|# What to show: glide'"'"'s apps only; '"$NAME"' shows itself.|' -e 's|^app = |#app = |' "$P/etc/glide/$NAME.conf"
fi
echo "/etc/glide/$NAME.conf" > "$P/DEBIAN/conffiles"

# --- documentation: a manual page, copyright, changelog ------------------------------------------
gzip -9n < "$HERE/README.md" > "$P/usr/share/doc/$NAME/README.Board.md.gz"
DATE=$(git -C "$ROOT" log -1 --format=%aD 2>/dev/null || date -R)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%at 2>/dev/null || date +%s)}
# A short page: the binary's own --help is the reference for its commands and options.
install -d "$P/usr/share/man/man1"
if [ -n "$APP" ]; then WHAT="$PRODUCT, a kiosk app built on Glide"; else WHAT="kiosk UI stack for touchscreen boards"; fi
cat <<EOF | gzip -9n > "$P/usr/share/man/man1/$NAME.1.gz"
.TH ${NAME^^} 1 "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)" "Glide $VERSION" "Glide"
.SH NAME
$NAME \\- $WHAT
.SH SYNOPSIS
.B $NAME board
.RB [ \\-\\-config
.IR file ]
.RI [ options ]
.br
.B $NAME \\-\\-help
.br
.B $NAME \\-\\-version
.SH DESCRIPTION
.B $NAME board
draws the app on the display (DRM/KMS) and reads the touchscreen, keyboards and
scanners through libinput, without X11 or Wayland.
The package runs it at boot as the systemd service
.BR glide@$NAME ,
as the system user
.BR glide .
.B $NAME \\-\\-help
and
.B $NAME board \\-\\-help
list every command and option; the config file documents every key.
.SH FILES
.TP
.I /etc/glide/$NAME.conf
The board config the service reads: one
.I key = value
a line.
.TP
.I /var/lib/glide/$NAME
The service's state: the remote API's key and self\\-signed certificate
.RI ( remote\\-tls\\-key.pem ,
.IR remote\\-tls\\-certificate.pem ),
made at install.
.TP
.I /lib/systemd/system/glide@$NAME.service
The unit; its log:
.BR "journalctl \\-u glide@$NAME" .
.SH SEE ALSO
.BR systemctl (1),
.BR journalctl (1)
EOF
{
    echo "$NAME ($VERSION) unstable; urgency=medium"
    echo
    echo "  * Glide $VERSION, built from commit $GLIDE_COMMIT by Board/deb.sh."
    echo "    Its changes: CHANGELOG.md in Glide's repository."
    echo
    echo " -- $MAINTAINER  $DATE"
} | gzip -9n > "$P/usr/share/doc/$NAME/changelog.gz"
cat > "$P/usr/share/doc/$NAME/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: $( [ -n "$APP" ] && echo "$PRODUCT (an app built on Glide)" || echo Glide )
Comment: Built by Board/deb.sh from Glide's repository, commit $GLIDE_COMMIT. The binary
 links statically the Swift runtime and Foundation (Apache-2.0 with the Swift Runtime Library
 Exception), SwiftNIO, swift-nio-ssl, Hummingbird, swift-argument-parser, swift-log,
 swift-collections and the other Swift packages Package.resolved names (Apache-2.0 or MIT), and
 BoringSSL (inside swift-nio-ssl; OpenSSL and ISC licences). The fonts are Debian's (see
 /usr/share/$NAME/Fonts/README.md).

Files: *
Copyright: the Glide authors
License: Glide
 Glide's repository states no licence of its own; ask its maintainers before redistributing.

Files: usr/share/$NAME/Fonts/DejaVuSans*
Copyright: 2003 Bitstream, Inc.; 2006 Tavmjong Bah; DejaVu changes are in the public domain
License: Bitstream-Vera
 The full text and the authors: /usr/share/$NAME/Fonts/DejaVuSans-LICENSE.txt
 (as Debian's fonts-dejavu-core ships it).

Files: usr/share/$NAME/Fonts/VL-PGothic*
Copyright: 1990-2003 Wada Laboratory, the University of Tokyo; 2003-2004 Electronic Font Open
 Laboratory; 2006-2022 Daisuke SUZUKI; 2002-2019 M+ FONTS PROJECT
License: mplus and BSD-3-clause
 The full texts: /usr/share/$NAME/Fonts/VL-PGothic-LICENSE.txt (as Debian's fonts-vlgothic ships it).

Files: usr/share/$NAME/Fonts/MaterialIcons*
Copyright: Material Design Authors; Jossef Harush
License: Apache-2.0
 On Debian systems the full text of the Apache License 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
EOF
if [ -z "$APP" ]; then
    cat >> "$P/usr/share/doc/$NAME/copyright" <<EOF

Files: usr/share/$NAME/content/*
Copyright: the Glide authors
License: Glide
EOF
fi
# Reasons for what lintian says about a kiosk's layout, for lintian's readers.
cat > "$P/usr/share/lintian/overrides/$NAME" <<EOF
# Glide renders with exactly the font files it was tested with (its pixel goldens depend on
# their versions, the same on every board and distribution), so it ships them instead of using
# fonts-dejavu-core, fonts-vlgothic and fonts-material-design-icons-iconfont.
$NAME: duplicate-font-file *
EOF

# --- maintainer scripts --------------------------------------------------------------------------
# The systemd parts are what dh_installsystemd writes (deb-systemd-helper, deb-systemd-invoke);
# the rest is this package's own.
cat > "$P/DEBIAN/postinst" <<EOF
#!/bin/sh
# $NAME's postinst (Board/deb.sh): the service user, the state folder with the remote API's
# certificate, then the unit enabled on the first install and (re)started, as debhelper does.
set -e
UNIT=$UNIT
CONF=/etc/glide/$NAME.conf
STATE=/var/lib/glide/$NAME

if [ "\$1" = configure ]; then
    # One system user for glide and every app built on it, made by the first of their packages;
    # the groups Debian's udev rules (and 70-glide-*.rules) give the display and input devices to.
    if ! getent passwd glide >/dev/null; then
        adduser --system --group --home /nonexistent --no-create-home --gecos "Glide kiosk" --quiet glide
    fi
    for group in video input; do
        id -nG glide | tr ' ' '\n' | grep -qx "\$group" || adduser --quiet glide "\$group"
    done
    # The config may hold a remote token: the service user reads it, others do not (unless the
    # administrator said otherwise with dpkg-statoverride).
    if ! dpkg-statoverride --list "\$CONF" >/dev/null; then
        chown root:glide "\$CONF"; chmod 0640 "\$CONF"
    fi
    install -d -m 0755 /var/lib/glide
    install -d -o glide -g glide -m 0700 "\$STATE"
    # The remote API's key and self-signed certificate, made now unless the config names its own
    # (as ssl-cert and openssh-server make theirs at install): the recipe and file names of
    # glide's own (Sources/RemoteControl/RemoteTLS.swift), which finds them in its state folder,
    # so the fingerprint can be pinned before the first start and stays across upgrades.
    if ! grep -Eq '^[[:space:]]*remote_tls_certificate[[:space:]]*=' "\$CONF" && [ ! -e "\$STATE/remote-tls-certificate.pem" ]; then
        work=\$(mktemp -d "\$STATE/.remote-tls-XXXXXX")
        host=\$(uname -n)
        printf '%s\n' '[req]' 'distinguished_name = subject' 'x509_extensions = extensions' 'prompt = no' \\
            '[subject]' 'O = Glide kiosk' "CN = \$host" '[extensions]' 'basicConstraints = critical, CA:FALSE' \\
            'keyUsage = critical, digitalSignature' 'extendedKeyUsage = serverAuth' \\
            "subjectAltName = DNS:\$host, DNS:localhost" > "\$work/request.cnf"
        if openssl req -x509 -config "\$work/request.cnf" -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \\
                -days 7300 -keyout "\$work/key.pem" -out "\$work/certificate.pem" >/dev/null 2>&1; then
            install -o glide -g glide -m 0600 "\$work/key.pem" "\$STATE/remote-tls-key.pem"
            install -o glide -g glide -m 0644 "\$work/certificate.pem" "\$STATE/remote-tls-certificate.pem"
            echo "glide@$NAME: the remote API's certificate, \$(openssl x509 -in "\$STATE/remote-tls-certificate.pem" -noout -fingerprint -sha256)"
        else
            echo "glide@$NAME: openssl could not make the remote API's certificate; glide makes it at its first start" >&2
        fi
        rm -rf "\$work"
    fi
    # Backlight permissions (70-glide-$NAME.rules) for a backlight already there.
    if [ -d /run/udev ]; then
        udevadm control --reload-rules >/dev/null 2>&1 || true
        udevadm trigger --subsystem-match=backlight --action=add >/dev/null 2>&1 || true
    fi
fi

if [ "\$1" = configure ] || [ "\$1" = abort-upgrade ] || [ "\$1" = abort-deconfigure ] || [ "\$1" = abort-remove ]; then
    # Only removes the mask deb-systemd-helper made when the package was removed.
    deb-systemd-helper unmask "\$UNIT" >/dev/null || true
    # was-enabled is true on a first install: enabled then; on an upgrade the administrator's
    # choice (systemctl disable) stands.
    if deb-systemd-helper --quiet was-enabled "\$UNIT"; then
        deb-systemd-helper enable "\$UNIT" >/dev/null || true
    else
        deb-systemd-helper update-state "\$UNIT" >/dev/null || true
    fi
    if [ -z "\${DPKG_ROOT:-}" ] && [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        # Started on a first install, restarted with the new binary on an upgrade.
        if [ -n "\$2" ]; then action=restart; else action=start; fi
        deb-systemd-invoke \$action "\$UNIT" >/dev/null || true
    fi
fi
EOF
cat > "$P/DEBIAN/prerm" <<EOF
#!/bin/sh
# $NAME's prerm (Board/deb.sh): the kiosk stops when the package is removed, not when it is
# upgraded (postinst restarts it then, as debhelper's default does).
set -e
if [ -z "\${DPKG_ROOT:-}" ] && [ "\$1" = remove ] && [ -d /run/systemd/system ]; then
    deb-systemd-invoke stop $UNIT >/dev/null || true
fi
EOF
cat > "$P/DEBIAN/postrm" <<EOF
#!/bin/sh
# $NAME's postrm (Board/deb.sh). Removed: the unit is masked while its enablement is kept (as
# debhelper does), so that a reinstall restores it. Purged: the enablement, the state (the remote
# API's key and certificate among it) and the config go; dpkg removes the conffile itself.
# The user glide stays, as Debian's packages leave their system users: files it owned elsewhere
# (a copied log, a backup) would otherwise pass to the next user given its uid, and glide's
# other packages (apps) may still run as it. deluser --system glide removes it by hand.
set -e
UNIT=$UNIT
if [ "\$1" = remove ] && [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
fi
if [ "\$1" = remove ] && command -v deb-systemd-helper >/dev/null; then
    deb-systemd-helper mask "\$UNIT" >/dev/null || true
fi
if [ "\$1" = purge ]; then
    if command -v deb-systemd-helper >/dev/null; then
        deb-systemd-helper purge "\$UNIT" >/dev/null || true
        deb-systemd-helper unmask "\$UNIT" >/dev/null || true
    fi
    rm -rf /var/lib/glide/$NAME /var/cache/glide/$NAME
    [ ! -d /var/lib/glide ] || rmdir --ignore-fail-on-non-empty /var/lib/glide
    [ ! -d /var/cache/glide ] || rmdir --ignore-fail-on-non-empty /var/cache/glide
    rm -f /etc/glide/$NAME.conf.dpkg-old /etc/glide/$NAME.conf.dpkg-new /etc/glide/$NAME.conf.dpkg-dist
fi
EOF
chmod 0755 "$P/DEBIAN/postinst" "$P/DEBIAN/prerm" "$P/DEBIAN/postrm"

# --- control -------------------------------------------------------------------------------------
# Depends: the libraries the binary links (the Swift runtime is inside it), with the versions
# their packages' symbols ask for; on arm64, from the cross build's Debian 13 root, which keeps no
# package database: the library's package as this machine names it, or Debian 13's t64 name of
# it, and glibc at the newest symbol version the binary uses. adduser and openssl for postinst
# (openssl also prints the certificate's fingerprint at each start).
# Recommends: what glide loads only when it needs it (dlopen: SVG pictures, speech, GStreamer
# with the demuxers and decoders of MP4, WebM and Matroska, H.264 and VP9 for video) and the data
# its defaults use (the colour emoji font, the compose table of physical keyboards).
step "dependencies"
if [ "$ARCH" = amd64 ]; then
    mkdir -p "$WORK/debian"; : > "$WORK/debian/control"
    SHLIBS=$(cd "$WORK" && dpkg-shlibdeps -O -e "debian/$NAME/usr/bin/$NAME" 2>"$WORK/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') ||
        { cat "$WORK/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
else
    LISTS=$(ls "$ROOT"/.build-cross/toolchain-amd64-*/var/lib/apt/lists/*binary-arm64_Packages 2>/dev/null || true)
    deps=()
    for soname in $(readelf -d "$P/usr/bin/$NAME" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        case "$soname" in ld-linux*|libc.so.*|libm.so.*) continue ;; esac
        # awk reads the whole list: leaving early would end ldconfig with SIGPIPE (pipefail).
        lib=$(ldconfig -p | awk -v s="$soname" '$1 == s && /x86-64/ && !found {print $NF; found = 1}')
        [ -n "$lib" ] || die "no $soname on this machine to name its package by"
        pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib") ; pkg=${pkg%%:*}
        if [ -n "$LISTS" ] && grep -qx "Package: ${pkg}t64" $LISTS; then pkg=${pkg}t64; fi
        deps+=("$pkg")
    done
    glibc=$(readelf -V "$P/usr/bin/$NAME" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
    SHLIBS="libc6 (>= $glibc), $(printf '%s\n' "${deps[@]}" | sort -u | paste -sd, | sed 's/,/, /g')"
fi
if [ -n "$APP" ]; then
    DESCRIPTION="kiosk app built on Glide: $PRODUCT
 $PRODUCT runs full screen on the display and touchscreen of a kiosk board
 (DRM/KMS and libinput, no X11 or Wayland), started at boot by systemd
 as glide@$NAME. Built on Glide, a Swift UI stack for kiosks."
else
    DESCRIPTION="kiosk UI stack for touchscreen boards
 Glide draws a touch UI straight to the display (DRM/KMS) and reads the
 touchscreen through libinput, without X11 or Wayland: scrolling, flicks
 and zooming as on a phone, text in many scripts, an on-screen keyboard,
 a screen reader, and a secure remote API for a fleet.
 .
 This package runs glide's catalog or bring-up app at boot as glide@glide
 (systemd); apps built on Glide have packages of their own."
fi
cat > "$P/DEBIAN/control" <<EOF
Package: $NAME
Version: $VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $(du -sk --exclude=DEBIAN "$P" | cut -f1)
Depends: $SHLIBS, adduser, openssl
Recommends: librsvg2-2, libxml2, libespeak-ng1, libsndfile1, fonts-noto-color-emoji, libx11-data, gstreamer1.0-plugins-base, gstreamer1.0-plugins-good, gstreamer1.0-libav, gstreamer1.0-alsa
Section: misc
Priority: optional
Description: $DESCRIPTION
EOF
# md5sums of everything but the conffile (dpkg keeps its own).
( cd "$P" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | grep -vx "etc/glide/$NAME.conf" | LC_ALL=C sort |
    xargs md5sum ) > "$P/DEBIAN/md5sums"
find "$P" -type d -exec chmod 0755 {} +
find "$P" -type f ! -path "*/DEBIAN/*" ! -path "$P/usr/bin/*" -exec chmod 0644 {} +

# --- build ---------------------------------------------------------------------------------------
DIST=${DEB_DIST:-$ROOT/dist}
mkdir -p "$DIST"
DEB=$(cd "$DIST" && pwd)/${NAME}_${VERSION}_$ARCH.deb
step "dpkg-deb"
read -r -a compression <<< "${DEB_COMPRESSION:-xz}"
dpkg-deb --root-owner-group "-Z${compression[0]}" "${compression[@]:1}" --build "$P" "$DEB" >/dev/null
echo "deb.sh: $(basename "$DEB"): $(stat -c %s "$DEB") bytes; Depends: $SHLIBS, adduser, openssl" >&2
if [ "${DEB_LINTIAN:-0}" = 1 ]; then
    step "lintian"
    lintian --fail-on error --display-info "$DEB" >&2 || die "lintian found errors in $DEB"
fi
echo "$DEB"
