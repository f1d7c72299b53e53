#!/bin/busybox sh
# /init of the virtual board's initramfs (busybox). Talks to the host over the serial console
# with marker lines: @@NAME text@@. For @@SHOT name@@ it waits for the host's reply line (the host
# takes a QMP screendump first). Parameters come from the kernel command line:
#   vboard.mode=test|run  vboard.app=NAME  vboard.swipe="X1 Y1 X2 Y2 MS STEPS"  vboard.tap="X Y"
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /run /tmp /dev/pts
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp

MODE=test; APP=bringup; ROTATION=0; SWIPE="640 600 640 300 400 20"; TAP="640 36"; W=1280; H=800
for arg in $(cat /proc/cmdline); do
    case "$arg" in
        vboard.mode=*) MODE=${arg#vboard.mode=} ;;
        vboard.app=*) APP=${arg#vboard.app=} ;;
        vboard.swipe=*) SWIPE=$(echo "${arg#vboard.swipe=}" | tr ',' ' ') ;;
        vboard.tap=*) TAP=$(echo "${arg#vboard.tap=}" | tr ',' ' ') ;;
        vboard.exswipe=*) EXSWIPE=$(echo "${arg#vboard.exswipe=}" | tr ',' ' ') ;;
        vboard.token=*) TOKEN=${arg#vboard.token=} ;;
        vboard.rotation=*) ROTATION=${arg#vboard.rotation=} ;;
        vboard.size=*) W=${arg#vboard.size=}; H=${W#*x}; W=${W%x*} ;;
        vboard.keys=*) KEYS=${arg#vboard.keys=} ;;
        vboard.speech=*) SPEECH=${arg#vboard.speech=} ;;
        vboard.video=*) VIDEO=${arg#vboard.video=} ;;
    esac
done

mark() { echo "@@$*@@"; }
shot() { mark "SHOT $1"; read -r reply; }
up() { cut -d' ' -f1 /proc/uptime; }
fail() { mark "FAIL $*"; poweroff -f; }
# Up to 30 s for the app's state file (written when it first comes to rest).
wait_state() { i=0; while [ ! -e $STATE ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; [ -e $STATE ]; }
# The state at rest. The file is gone while the app draws (a clock's tick too), so a plain cat
# can land in that gap and read nothing; this reads until it gets the state (at most 30 s).
rest_state() {
    local s="" i=0
    while [ -z "$s" ] && [ $i -lt 600 ]; do s=$(cat $STATE 2>/dev/null) || sleep 0.05; i=$((i+1)); done
    echo "$s"
}
# Up to 30 s for a line with TEXT in the log FILE: wait_log FILE TEXT. (A CI host's slow hour
# runs the guest about three times slower than its fast one.)
wait_log() { i=0; while ! grep -q "$2" "$1" && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; grep -q "$2" "$1"; }
# Until the app has answered what was just sent: its state file differs from BEFORE (gone while
# it draws, a new frame number at rest), at most $2 tenths of a second (an input that changes
# nothing changes no state); then until it is at rest, the state the same over four reads.
await_rest() {
    local now last="" same=0 i=0
    while [ "$(cat $STATE 2>/dev/null)" = "$1" ] && [ $i -lt "$2" ]; do sleep 0.1; i=$((i+1)); done
    sleep 0.5
    i=0
    while [ $same -lt 4 ] && [ $i -lt 400 ]; do
        now=$(cat $STATE 2>/dev/null)
        if [ -n "$now" ] && [ "$now" = "$last" ]; then same=$((same+1)); else same=0; last=$now; fi
        sleep 0.1; i=$((i+1))
    done
    [ $same -ge 4 ] || diag "the app did not come to rest within 40 s"
}

for m in $(cat /modules/order); do insmod "/modules/$m" 2>/dev/null || echo "insmod $m failed"; done
mark "UPTIME init-done $(up)"

/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1 || fail "udevd did not start"
udevadm trigger --action=add
udevadm settle --timeout=10
[ -e /dev/dri/card0 ] || fail "no /dev/dri/card0"
mark "UPTIME udev-settled $(up)"

# Text on the kernel's console (fbcon on the virtio-gpu framebuffer): what must come back when
# glide exits.
printf '\n\n  Glide virtual board: kernel text console on tty0\n  (glide takes this screen while it runs)\n' > /dev/tty0

# The network for the remote-control API: QEMU's user networking forwards a host port to 8080.
ip link set lo up
ip link set eth0 up 2>/dev/null && ip addr add 10.0.2.15/24 dev eth0 || echo "vboard: no eth0, no remote control"
REMOTE="--remote 0.0.0.0:8080 --remote-token ${TOKEN:-vboard}"

STATE=/tmp/state.json
export GLIDE_FONTS=/usr/share/glide/Fonts GLIDE_CONTENT=/usr/share/glide/content
# Where glide keeps the remote API's key and self-signed certificate (systemd's StateDirectory
# on a board): made by the first run, kept for the later ones.
export STATE_DIRECTORY=/var/lib/glide
if [ "$MODE" = run ]; then
    glide board --app "$APP" --rotation "$ROTATION" --pointer-as-touch --state-file $STATE $REMOTE
    mark "EXIT $?"
    poweroff -f
fi

mark "UPTIME glide-start $(up)"
# Standard input is the VT, as systemd's TTYPath=/dev/tty1 gives it on a board.
mark "KD before $(kdmode /dev/tty1)"
glide board --app "$APP" --rotation "$ROTATION" --state-file $STATE --record /tmp/record.jsonl --stats $REMOTE \
    < /dev/tty1 > /tmp/stats.txt 2> /tmp/glide.log &
GLIDE=$!
wait_state || { cat /tmp/glide.log; fail "the app did not show a settled first frame within 30 s"; }
mark "UPTIME first-rest $(up)"
mark "KD running $(kdmode /dev/tty1)"
mark "STATE first $(rest_state)"
shot first

# Idle CPU: utime + stime of glide over 3 s with nothing happening.
cpu() { awk '{print $14 + $15}' /proc/$GLIDE/stat; }
c0=$(cpu); t0=$(up); sleep 3; c1=$(cpu); t1=$(up)
mark "IDLE ticks=$((c1 - c0)) seconds=$t0..$t1 hz=$(getconf CLK_TCK 2>/dev/null || echo 100)"
mark "MEMORY at-rest $(awk '/VmRSS|RssAnon|RssFile|RssShmem/ {printf "%s %s kB; ", $1, $2}' /proc/$GLIDE/status)"

# The touchscreen is plugged in now, after glide started: libinput's udev seat must pick it up
# (INP-2). Touches written before glide has the device open would be lost, so wait for its log.
mkfifo /tmp/touch.fifo
uinput-touch "$W" "$H" /tmp/touch.fifo /tmp/touch.ack &
wait_log /tmp/glide.log "input device added: Glide virtual touchscreen" && mark "HOTPLUG $(up)"

# A command to an injector (touch: the touchscreen, skew: the skewed one), waiting until it has
# sent it (at most 15 s): inject NAME COMMAND. Each writes "done N" to /tmp/NAME.ack after its Nth.
inject() {
    local sent i=0
    sent=$(sed -n 's/^done //p' /tmp/$1.ack 2>/dev/null | tail -1)
    echo "$2" > /tmp/$1.fifo
    while ! grep -q "done $((${sent:-0} + 1))" /tmp/$1.ack 2>/dev/null && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done
}
# One more touch command, then until the injector has sent it and the app is at rest again.
touch_settle() {
    local before
    before=$(cat $STATE 2>/dev/null)
    inject touch "$1"
    await_rest "$before" 50
}
# What glide is doing (when something timed out).
diag() {
    mark "DIAG $1: $(grep State /proc/$GLIDE/status 2>/dev/null) wchan=$(cat /proc/$GLIDE/wchan 2>/dev/null) cpu-ticks=$(awk '{print $14 + $15}' /proc/$GLIDE/stat 2>/dev/null) uptime=$(up)"
    tail -5 /tmp/glide.log | while read -r l; do mark "DIAG log: $l"; done
}
touch_settle "tap $TAP"
mark "STATE tap $(rest_state)"
shot tap

touch_settle "swipe $SWIPE"
mark "STATE swipe $(rest_state)"
shot swipe

# The host drives the app through the remote-control API (a swipe, /wait, /screenshot.png) and
# compares the screenshot with a screendump of the same moment; glide keeps the display meanwhile.
# The certificate glide made, for the host to pin.
while read -r l; do mark "CERT $l"; done < $STATE_DIRECTORY/remote-tls-certificate.pem
mark "REMOTE"; read -r reply
mark "MEMORY after-input $(awk '/VmRSS|RssAnon|RssFile|RssShmem/ {printf "%s %s kB; ", $1, $2}' /proc/$GLIDE/status)"

# VT-switch protocol (OUT-3): SIGUSR1 drops DRM master and keeps it dropped (no retry takes it
# back); SIGUSR2 takes it back and shows the frame again. debugfs lists each client's master flag.
mount -t debugfs none /sys/kernel/debug 2>/dev/null
is_master() { awk -v p=$GLIDE '$2 == p {print $4}' /sys/kernel/debug/dri/0/clients 2>/dev/null | head -1; }
mark "MASTER running $(is_master)"
kill -USR1 $GLIDE
sleep 2.5
mark "MASTER released $(is_master)"
kill -USR2 $GLIDE
i=0; while [ "$(is_master)" != y ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
sleep 1
mark "MASTER retaken $(is_master)"
shot retaken

# Display unplug and replug (OUT-3): the connector's status is forced and the card announces a
# change, as the kernel does when a cable is pulled (forcing alone sends no event in 6.1).
STATUS=$(ls /sys/class/drm/card0-*/status | head -1)
echo off > $STATUS
echo change > /sys/class/drm/card0/uevent
wait_log /tmp/glide.log "display disconnected" && mark "UNPLUG paused $(up)" || mark "UNPLUG not-noticed $(up)"
sleep 1
echo detect > $STATUS
echo change > /sys/class/drm/card0/uevent
wait_log /tmp/glide.log "display is back" && mark "UNPLUG resumed $(up)" || mark "UNPLUG not-resumed $(up)"
sleep 1
shot replugged

# SIGTERM to the app ($GLIDE), SIGKILL after 30 s; returns its exit status. $1 names it.
stop_app() {
    kill -TERM $GLIDE
    i=0; while kill -0 $GLIDE 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    kill -0 $GLIDE 2>/dev/null && { diag "$1 did not exit within 30 s of SIGTERM"; kill -KILL $GLIDE; }
    wait $GLIDE
}
stop_app glide
mark "EXIT $?"
mark "KD exited $(kdmode /dev/tty1)"
while read -r l; do mark "LOG $l"; done < /tmp/glide.log
while read -r l; do mark "STATS $l"; done < /tmp/stats.txt
while read -r l; do mark "RECORD $l"; done < /tmp/record.jsonl
sleep 0.3
shot console

# An app of its own on the same runtime (APP-1): a static executable built outside the Glide
# package (the Departures example, with its live clock and its list, or the app vboard.sh was
# given), named in /etc/example.
EXAMPLE=$(cat /etc/example 2>/dev/null)
if [ -n "$EXAMPLE" ] && [ -x "/bin/$EXAMPLE" ]; then
    rm -f $STATE
    mark "UPTIME example-start $(up)"
    # Departures shows the departures of 09:41 as headless does, so the frames compare (its clock
    # still ticks); another app may read the same variable.
    # Legacy modesetting forced (glide took atomic on the same card above): both paths run here.
    DEPARTURES_TIME=09:41:00 "$EXAMPLE" board --rotation "$ROTATION" --modesetting legacy --state-file $STATE < /dev/tty1 > /tmp/example.out 2> /tmp/example.log &
    GLIDE=$!
    wait_state
    mark "UPTIME example-first-rest $(up)"
    mark "STATE example-first $(rest_state)"
    shot example-first
    sleep 2
    shot example-clock
    touch_settle "swipe $EXSWIPE"
    mark "STATE example-swipe $(rest_state)"
    shot example-swipe
    stop_app "the example"
    mark "EXEXIT $?"
    while read -r l; do mark "EXLOG $l"; done < /tmp/example.log
fi

# After a run: its exit status, its log and its --stats as marker lines (report NAME STATUS
# LOG [STATS]).
report() {
    mark "$1 exit $2"
    while read -r l; do mark "${1}LOG $l"; done < "$3"
    [ -z "${4:-}" ] || while read -r l; do mark "${1}STATS $l"; done < "$4"
}

# Idle blanking (issue 14): glide again on virtio-gpu, dark after 10 s without input through the
# connector's DPMS property, which on an atomic driver switches the CRTC off (its atomic state
# in debugfs shows it; sysfs's dpms file does not follow atomic commits); the tap that wakes it
# must not reach the app, the next one must.
rm -f $STATE
crtc_active() { grep -m1 -E '^[[:space:]]+active=' /sys/kernel/debug/dri/0/state | tr -d '[:space:]'; }
glide board --app "$APP" --rotation "$ROTATION" --idle-blank-seconds 10 --state-file $STATE < /dev/tty1 > /dev/null 2> /tmp/blank.log &
GLIDE=$!
wait_state
mark "BLANK crtc-awake $(crtc_active)"
mark "STATE blank-first $(rest_state)"
wait_log /tmp/blank.log "input device added: Glide virtual touchscreen"
wait_log /tmp/blank.log "screen off"
mark "BLANK crtc-idle $(crtc_active)"
shot blanked
touch_settle "tap $TAP"
mark "BLANK crtc-woken $(crtc_active)"
mark "STATE blank-woken $(rest_state)"
shot blank-woken
touch_settle "tap $TAP"
mark "STATE blank-tapped $(rest_state)"
# Dark again, then the display released and taken back (a VT switch): the modeset lights the
# panel, so glide's screen must be on again, with its frame, not dark in glide's mind.
i=0; while [ "$(grep -c "screen off" /tmp/blank.log)" -lt 2 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
mark "BLANK crtc-dark-again $(crtc_active)"
rm -f $STATE
kill -USR1 $GLIDE; sleep 1; kill -USR2 $GLIDE
wait_state
mark "BLANK crtc-taken-back $(crtc_active)"
mark "STATE blank-taken-back $(rest_state)"
shot blank-taken-back
stop_app "glide with blanking"
report BLANK $? /tmp/blank.log

# The display schedule (issue 62): today a holiday, so the panel goes off through DPMS right
# after the first frame; a tap wakes it (display_wake_seconds, not waited out here: the headless
# tests do) without reaching the app. The guest's clock and zone (UTC) are what glide reads.
rm -f $STATE
S0=$(up)
glide board --app "$APP" --rotation "$ROTATION" --display-schedule "daily 00:00-24:00; holidays $(date +%Y-%m-%d)" \
    --display-wake-seconds 30 --state-file $STATE < /dev/tty1 > /dev/null 2> /tmp/sched.log &
GLIDE=$!
wait_log /tmp/sched.log "screen off"
mark "SCHED at-off $(up)"
mark "SCHED crtc-closed $(crtc_active)"
mark "STATE sched-closed $(rest_state)"
# Not waiting for "input device added" (glide reads the devices libinput found at its start):
# the injector's touchscreen is open since glide started.
rm -f $STATE
touch_settle "tap $TAP"
mark "SCHED at-woken $(up)"
mark "SCHED crtc-woken $(crtc_active)"
mark "STATE sched-woken $(rest_state)"
stop_app "glide with a display schedule"
report SCHED $? /tmp/sched.log
mark "SCHED seconds $S0 $(up)"

# Video (issue 63): the clips' catalog on DRM, its attract loop (720p H.264) over the screen.
# GStreamer reads its plugins in glide's process (its scanner program is not in the initramfs).
if [ "${VIDEO:-0}" = 1 ]; then
    # Its plugins are where Debian has them, not beside libgstreamer (/lib here): GStreamer
    # looks beside the library unless told.
    export GST_REGISTRY_FORK=no GST_REGISTRY=/tmp/gst-registry.bin GST_PLUGIN_SYSTEM_PATH=/usr/lib/x86_64-linux-gnu/gstreamer-1.0
    V0=$(up)
    glide board --app catalog --manifest /usr/share/glide/content/video.json --rotation "$ROTATION" \
        < /dev/tty1 > /dev/null 2> /tmp/video.log &
    GLIDE=$!
    wait_log /tmp/video.log "attract.mp4: playing" && mark "VIDEO playing $(up)"
    # A third screen two seconds on: the emulated machine once stalled a clip's decoding for
    # two seconds (three clips decoding then); a frozen clip stays frozen in all three.
    sleep 1; shot video-a
    sleep 2; shot video-b
    sleep 2; shot video-c
    stop_app "glide playing a clip"
    report VIDEO $? /tmp/video.log
    mark "VIDEO seconds $V0 $(up)"
fi

# Text entry (issue 32): the catalog's search field typed on the on-screen keyboard through the
# touchscreen (`onscreen_keyboard = always`: QEMU's PS/2 keyboard counts as a physical one).
# The host reads where to tap from the remote API's state and answers each KEYTAP with "X Y",
# or "done"; --stats times every tap to the flip that shows it.
if [ "${KEYS:-1}" != 0 ]; then
printf 'onscreen_keyboard = always\nkeyboard_layout = en\n' > /tmp/keys.conf
rm -f $STATE
glide board --app "$APP" --config /tmp/keys.conf --rotation 0 --state-file $STATE --stats $REMOTE \
    < /dev/tty1 > /tmp/keys-stats.txt 2> /tmp/keys.log &
GLIDE=$!
wait_state
wait_log /tmp/keys.log "input device added: Glide virtual touchscreen"
n=0
while [ $n -lt 20 ]; do
    mark "KEYTAP"; read -r reply
    [ "$reply" = done ] && break
    # The host waits for the app to answer the tap before it plans the next.
    inject touch "tap $reply"
    n=$((n+1))
done
mark "STATE keys $(rest_state)"
stop_app "glide typing"
report KEYS $? /tmp/keys.log /tmp/keys-stats.txt
fi

# The screen reader (issue 33) on the emulated sound card: a tap says what is under it (after
# the double-tap wait), a finger moving over the screen says each element it meets. QEMU writes
# the card's output to a WAV on the host; --stats times each utterance to its first sample on
# the card, and glide's CPU time over the speaking is reported.
if [ "${SPEECH:-0}" = 1 ]; then
printf 'screen_reader = on\nspeech_device = plughw:0,0\n' > /tmp/sr.conf
rm -f $STATE
glide board --app "$APP" --config /tmp/sr.conf --rotation "$ROTATION" --state-file $STATE --stats \
    < /dev/tty1 > /tmp/sr-stats.txt 2> /tmp/sr.log &
GLIDE=$!
wait_state
wait_log /tmp/sr.log "input device added: Glide virtual touchscreen"
c0=$(cpu); t0=$(up)
touch_settle "tap $TAP"
sleep 3
touch_settle "swipe $SWIPE"
sleep 3
c1=$(cpu); t1=$(up)
mark "SPEECH cpu ticks=$((c1 - c0)) seconds=$t0..$t1 hz=$(getconf CLK_TCK 2>/dev/null || echo 100)"
mark "STATE speech $(rest_state)"
stop_app "glide speaking"
report SPEECH $? /tmp/sr.log /tmp/sr-stats.txt
fi

# VKMS (issue 15): the kernel's virtual KMS driver, built for this kernel, paces flips by a
# vertical-blank timer and is atomic only. It comes up as a second card; glide runs on it at its
# preferred mode (1024x768), with the same touchscreen, through a swipe and a fling, on three
# buffers (a frame drawn while a flip is pending is held for the next blank).
if [ -f /modules/extra/vkms.ko ]; then
    insmod /modules/extra/vkms.ko || mark "VKMS insmod-failed"
    i=0; while [ ! -e /dev/dri/card1 ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done
    mark "VKMS card1 $(basename "$(readlink -f /sys/class/drm/card1/device)")"
    rm -f $STATE
    glide board --app "$APP" --card /dev/dri/card1 --buffers 3 --state-file $STATE --stats $REMOTE > /tmp/vkms-stats.txt 2> /tmp/vkms.log &
    GLIDE=$!
    wait_state
    mark "STATE vkms-first $(rest_state)"
    # The host reads the frame back through vkms's writeback connector (remote API,
    # /screenshot.png?source=scanout) and compares it with the headless render.
    mark "VKMSREMOTE"; read -r reply
    wait_log /tmp/vkms.log "input device added: Glide virtual touchscreen"
    touch_settle "swipe $SWIPE"
    mark "STATE vkms-swipe $(rest_state)"
    stop_app "glide on vkms"
    report VKMS $? /tmp/vkms.log /tmp/vkms-stats.txt
fi
echo quit > /tmp/touch.fifo

# Touch calibration (issue 14): a second touchscreen whose readings are skewed against the
# panel (x' = 0.9x + 0.05y + 30, y' = -0.04x + 0.92y + 25). `glide calibrate` shows five
# crosses; a tap on each (through the skew) gives the fit, written into a config file whose
# old version is kept. glide then runs with that config, and a tap through the same skew must
# land where the finger was. Last, taps all on one spot must write nothing. Rotation 0 here:
# the injector's screen pixels are then canvas pixels.
sleep 0.3
mkfifo /tmp/skew.fifo
uinput-touch "$W" "$H" /tmp/skew.fifo /tmp/skew.ack 0.9 0.05 30 -0.04 0.92 25 &
CONF=/tmp/board.conf
printf '# the virtual board\ncalibration = 1 0 0 0 1 0   # factory\n' > $CONF
cp $CONF /tmp/board.conf.orig
# Runs `glide calibrate` and taps each cross it asks for, at the cross ($1 = exact) or all
# at one spot ($1 = "X Y"); $2 names the run in the marks.
calibrate() {
    rm -f /tmp/cal.log
    glide calibrate --config $CONF --rotation 0 < /dev/tty1 > /tmp/cal.out 2> /tmp/cal.log &
    GLIDE=$!
    wait_log /tmp/cal.log "input device added: Glide skewed touchscreen"
    for k in 1 2 3 4 5; do
        wait_log /tmp/cal.log "touch cross $k of 5" || { diag "calibrate did not ask for cross $k"; break; }
        xy=$(sed -n "s/.*touch cross $k of 5 at \([0-9]*\),\([0-9]*\).*/\1 \2/p" /tmp/cal.log | tail -1)
        [ "$1" = exact ] || xy="$1"
        inject skew "tap $xy"
    done
    # The outcome is drawn on the frame after the fifth touch, and shown for 2.5 s from then.
    wait_log /tmp/cal.log "cross 5 touched" || diag "calibrate did not take the fifth touch"
    sleep 1
    shot "calibrate-$2"
    i=0; while kill -0 $GLIDE 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    kill -0 $GLIDE 2>/dev/null && { diag "calibrate did not end"; kill -TERM $GLIDE; }
    wait $GLIDE
    mark "CAL $2-exit $?"
    while read -r l; do mark "CALLOG $2 $l"; done < /tmp/cal.log
    while read -r l; do mark "CALOUT $2 $l"; done < /tmp/cal.out
}
calibrate exact good
mark "CAL config $(grep '^calibration' $CONF)"
mark "CAL backup $(cmp -s /tmp/board.conf.orig $CONF.bak && echo kept || echo lost)"
rm -f $STATE /tmp/cal-record.jsonl
glide board --app "$APP" --config $CONF --rotation 0 --state-file $STATE --record /tmp/cal-record.jsonl < /dev/tty1 > /dev/null 2> /tmp/calboard.log &
GLIDE=$!
wait_state
wait_log /tmp/calboard.log "input device added: Glide skewed touchscreen"
mark "STATE cal-first $(rest_state)"
before=$(rest_state)
inject skew "tap $TAP"
await_rest "$before" 100
mark "STATE cal-tapped $(rest_state)"
stop_app "glide with the calibration"
mark "CAL board-exit $?"
mark "CAL tap $TAP recorded $(grep -m1 '"down"' /tmp/cal-record.jsonl)"
cp $CONF /tmp/board.conf.good
calibrate "400 300" spot
mark "CAL after-spot $(cmp -s /tmp/board.conf.good $CONF && echo unchanged || echo changed)"
echo quit > /tmp/skew.fifo
mark "DONE $(up)"
poweroff -f
