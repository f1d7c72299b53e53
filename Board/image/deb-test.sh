#!/bin/bash
# Board/image.sh test, inside the kiosk image, after image-test.sh's checks (same boot): the
# Debian packages of Board/deb.sh as an administrator uses them (issue 62). The image's own glide
# goes first, with its user, so that the guest is a Debian without glide; then for each line of
# debs/tests (NAME DEB [UPGRADE_DEB [remove]]): `apt-get install ./DEB` (offline: the image holds
# every dependency), the service running as the glide user and drawing, an upgrade to UPGRADE_DEB
# that keeps an edited config and the certificate and restarts the service, then remove (with
# `remove`) and purge, after which the file system holds what it held before the install.
# Reports over the serial console as image-test.sh does: @@DEBPASS what@@ and @@DEBFAIL what@@,
# @@SHOT name@@.
D=/usr/local/lib/glide/debs
export DEBIAN_FRONTEND=noninteractive
mark() { echo "@@$*@@"; }
shot() { mark "SHOT $1"; read -r reply; }
check() { local what=$1; shift; if "$@"; then mark "DEBPASS $what"; else mark "DEBFAIL $what"; fi; }
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v t="$1" '{printf "%.1f", $1 - t}' /proc/uptime; }
# apt-get, its time, and its last lines in the console log when it fails.
apt_do() {
    local t0 rc; t0=$(up)
    apt-get "$@" -y -q </dev/null > /tmp/apt.log 2>&1; rc=$?
    APT_SECONDS=$(since "$t0")
    [ $rc = 0 ] || tail -15 /tmp/apt.log | while read -r l; do mark "APT $l"; done
    return $rc
}
# Everything on the root file system but what changes by itself or is apt's and dpkg's own.
snapshot() {
    find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/log \
        -o -path /var/cache -o -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/tmp \) -prune -o -print | sort
}

# --- a Debian without glide -------------------------------------------------------------------
START=$(up)
systemctl stop glide@glide.service 2>/dev/null
rm -f /etc/systemd/system/glide@.service /etc/systemd/system/multi-user.target.wants/glide@glide.service \
    /etc/udev/rules.d/70-glide.rules /usr/local/bin/glide
rm -rf /etc/systemd/system/glide@.service.d /usr/share/glide /etc/glide /var/lib/glide /var/cache/glide
userdel glide 2>/dev/null; groupdel glide 2>/dev/null
systemctl daemon-reload; systemctl reset-failed

cycle() {
    local name=$1 deb=$2 upgrade=${3:-} remove=${4:-} U=glide@$1.service conf=/etc/glide/$1.conf state=/var/lib/glide/$1
    prop() { systemctl show -p "$1" --value "$U"; }
    frames() { journalctl -b -u "$U" -o cat --no-pager | grep -c "first frame on screen"; }
    wait_frames() {
        local i=0; while [ "$(frames)" -le "$1" ] && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i+1)); done
        [ "$(frames)" -gt "$1" ]
    }
    fingerprint() { openssl x509 -in "$state/remote-tls-certificate.pem" -noout -fingerprint -sha256 2>/dev/null; }
    local before after files pid fp t0
    before=$(snapshot)

    t0=$(up)
    check "$name: apt-get install $D/$deb" apt_do install "$D/$deb"
    mark "DEBFIGURE $name: apt-get install took $APT_SECONDS s"
    check "$name: its postinst printed the certificate's fingerprint" grep -q "glide@$name: the remote API's certificate, sha256 Fingerprint=" /tmp/apt.log
    check "$name: glide@$name drew its first frame after the install" wait_frames 0 240
    mark "DEBFIGURE $name: install to first frame $(since "$t0") s"
    check "$name: glide@$name is active (running)" [ "$(prop ActiveState)/$(prop SubState)" = active/running ]
    check "$name: glide@$name is enabled ($(systemctl is-enabled "$U" 2>&1))" [ "$(systemctl is-enabled "$U" 2>&1)" = enabled ]
    pid=$(prop MainPID)
    check "$name: it runs /usr/bin/$name as glide with video and input ($(ps -o user=,supgrp= -p "$pid" | tr -s ' '))" \
        bash -c "[ \"\$(readlink /proc/$pid/exe)\" = /usr/bin/$name ] && ps -o user= -p $pid | grep -qx glide &&
                 ps -o supgrp= -p $pid | grep -q video && ps -o supgrp= -p $pid | grep -q input"
    check "$name: the config is a conffile, root:glide 0640 ($(stat -c '%U:%G %a' "$conf"))" \
        bash -c "dpkg-query -W -f '\${Conffiles}' $name | grep -q ' $conf ' && [ \"\$(stat -c '%U:%G %a' $conf)\" = 'root:glide 640' ]"
    fp=$(fingerprint)
    check "$name: the certificate was made at install: $fp" [ -n "$fp" ]
    check "$name: its key is the glide user's alone ($(stat -c '%U %a' "$state/remote-tls-key.pem" 2>&1))" \
        [ "$(stat -c '%U %a' "$state/remote-tls-key.pem" 2>&1)" = "glide 600" ]
    check "$name: its state folder is the unit's StateDirectory (\$STATE_DIRECTORY=$(tr '\0' '\n' < /proc/"$pid"/environ | sed -n 's/^STATE_DIRECTORY=//p'))" \
        [ "$(tr '\0' '\n' < /proc/"$pid"/environ | sed -n 's/^STATE_DIRECTORY=//p')" = "$state" ]
    files=$(dpkg-query -L "$name")
    sleep 1   # the bring-up pattern is still; an app's screen only has to be lit
    shot "deb-$name-installed"

    if [ -n "$upgrade" ]; then
        # An administrator's edits: glide's catalog instead of the bring-up pattern, and a comment.
        sed -i 's/^app = bringup$/app = catalog/' "$conf"
        echo "# edited on this kiosk" >> "$conf"
        local sum n; sum=$(md5sum < "$conf"); n=$(frames); t0=$(up)
        check "$name: apt-get install $D/$upgrade (the upgrade)" apt_do install "$D/$upgrade"
        mark "DEBFIGURE $name: the upgrade's apt-get install took $APT_SECONDS s"
        check "$name: upgraded to $(dpkg-query -W -f '${Version}' "$name")" [ "$(dpkg-query -W -f '${Version}' "$name")" = "$(dpkg-deb -f "$D/$upgrade" Version)" ]
        check "$name: the upgrade restarted the service (a new first frame)" wait_frames "$n" 240
        mark "DEBFIGURE $name: upgrade to first frame $(since "$t0") s"
        check "$name: a new main process ($pid, then $(prop MainPID)), active ($(prop ActiveState)/$(prop SubState))" \
            bash -c "[ \"\$(systemctl show -p MainPID --value $U)\" != $pid ] && [ \"\$(systemctl is-active $U)\" = active ]"
        check "$name: the edited config was kept" [ "$(md5sum < "$conf")" = "$sum" ]
        check "$name: the certificate was kept: $(fingerprint)" [ "$(fingerprint)" = "$fp" ]
        check "$name: still enabled" [ "$(systemctl is-enabled "$U" 2>&1)" = enabled ]
        files=$(dpkg-query -L "$name")
        sleep 4   # the headless render is the catalog at rest, 3 s in
        shot "deb-$name-upgraded"
    fi

    # Removed, then purged; or purged at once (the maintainer scripts' other path: remove and
    # purge in one run).
    pid=$(prop MainPID)
    if [ "$remove" = remove ]; then
        check "$name: apt-get remove" apt_do remove "$name"
        mark "DEBFIGURE $name: apt-get remove took $APT_SECONDS s"
        check "$name: the service stopped ($(prop ActiveState), pid $pid gone)" bash -c "[ \"\$(systemctl is-active $U)\" != active ] && [ ! -e /proc/$pid ]"
        check "$name: removed: the binary and the unit are gone, the config and state stay" \
            bash -c "[ ! -e /usr/bin/$name ] && [ ! -e /lib/systemd/system/$U ] && [ -f $conf ] && [ -f $state/remote-tls-key.pem ]"
    fi
    check "$name: apt-get purge" apt_do purge "$name"
    check "$name: the service stopped (pid $pid gone)" bash -c "[ \"\$(systemctl is-active $U)\" != active ] && [ ! -e /proc/$pid ]"
    mark "DEBFIGURE $name: apt-get purge took $APT_SECONDS s"
    check "$name: dpkg knows it no more ($(dpkg-query -W -f '${Status}' "$name" 2>&1))" bash -c "! dpkg-query -W -f '\${Status}' $name 2>/dev/null | grep -q ."
    local left; left=$(echo "$files" | while read -r f; do [ -e "$f" ] && [ ! -d "$f" ] && echo "$f"; done)
    check "$name: none of its $(echo "$files" | wc -l) paths (dpkg -L) left but shared folders${left:+: $left}" [ -z "$left" ]
    after=$(snapshot)
    local added removed
    added=$(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')
    removed=$(comm -23 <(echo "$before") <(echo "$after") | tr '\n' ' ')
    check "$name: purged: the file system as before the install${added:+; new: $added}${removed:+; gone: $removed}" [ -z "$added$removed" ]
    check "$name: no config, state, cache, unit or enablement left" \
        bash -c "[ ! -e $conf ] && [ ! -e /etc/glide ] && [ ! -e /var/lib/glide ] && [ ! -e /var/cache/glide ] && [ -z \"\$(find /etc/systemd /lib/systemd /var/lib/systemd -name '$U' 2>/dev/null)\" ]"
    check "$name: the user glide stays (as Debian's packages leave their system users)" bash -c "getent passwd glide >/dev/null"
}

# The list on descriptor 3: standard input is the console, where the host answers screendumps.
while read -r name deb upgrade remove <&3; do
    [ -n "$name" ] && cycle "$name" "$deb" "$upgrade" "$remove"
done 3< "$D/tests"
mark "DEBFIGURE the package test took $(since "$START") s of the guest's time"
mark "DEBDONE $(up)"
