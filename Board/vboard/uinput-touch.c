// A virtual multitouch touchscreen for the virtual board (runs inside the VM).
// Usage: uinput-touch WIDTH HEIGHT FIFO ACKFILE [A B C D E F]
// Creates a direct-touch device through /dev/uinput (INPUT_PROP_DIRECT, BTN_TOUCH, MT slots,
// ABS_X/Y = 0..WIDTH-1 x 0..HEIGHT-1, so libinput's transformed coordinates equal panel pixels),
// then reads commands from FIFO, one per line, and writes "done N" to ACKFILE after each:
//   swipe X1 Y1 X2 Y2 MILLISECONDS STEPS   one finger, down, STEPS moves, up
//   tap X Y                                 down and up 60 ms later
//   quit
// With A..F the sensor is skewed against the panel: a finger at screen pixel (x, y) is reported
// at (A*x + B*y + C, D*x + E*y + F), rounded and kept in range, as a badly mounted or
// uncalibrated touchscreen would; the calibration test undoes it.
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int fd;
static int tracking = 1;
static int width, height;
static double skew[6] = { 1, 0, 0, 0, 1, 0 };

// The sensor's reading for screen pixel (x, y).
static void sense(int x, int y, int *sx, int *sy) {
    double rx = skew[0] * x + skew[1] * y + skew[2], ry = skew[3] * x + skew[4] * y + skew[5];
    *sx = rx < 0 ? 0 : rx > width - 1 ? width - 1 : (int)(rx + 0.5);
    *sy = ry < 0 ? 0 : ry > height - 1 ? height - 1 : (int)(ry + 0.5);
}

static void emit(int type, int code, int value) {
    struct input_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type; ev.code = code; ev.value = value;
    if (write(fd, &ev, sizeof ev) != sizeof ev) { perror("uinput write"); exit(1); }
}
static void sync_report(void) { emit(EV_SYN, SYN_REPORT, 0); }
static void sleep_ms(int ms) {
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}
static void down(int x, int y) {
    sense(x, y, &x, &y);
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_TRACKING_ID, tracking++);
    emit(EV_ABS, ABS_MT_POSITION_X, x); emit(EV_ABS, ABS_MT_POSITION_Y, y);
    emit(EV_KEY, BTN_TOUCH, 1);
    emit(EV_ABS, ABS_X, x); emit(EV_ABS, ABS_Y, y);
    sync_report();
}
static void move(int x, int y) {
    sense(x, y, &x, &y);
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_POSITION_X, x); emit(EV_ABS, ABS_MT_POSITION_Y, y);
    emit(EV_ABS, ABS_X, x); emit(EV_ABS, ABS_Y, y);
    sync_report();
}
static void up(void) {
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    emit(EV_KEY, BTN_TOUCH, 0);
    sync_report();
}
static void abs_setup(int code, int max) {
    struct uinput_abs_setup a;
    memset(&a, 0, sizeof a);
    a.code = code; a.absinfo.minimum = 0; a.absinfo.maximum = max;
    if (ioctl(fd, UI_ABS_SETUP, &a) < 0) { perror("UI_ABS_SETUP"); exit(1); }
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 11) { fprintf(stderr, "usage: %s WIDTH HEIGHT FIFO ACKFILE [A B C D E F]\n", argv[0]); return 2; }
    int w = atoi(argv[1]), h = atoi(argv[2]);
    width = w; height = h;
    if (argc == 11) for (int i = 0; i < 6; i++) skew[i] = atof(argv[5 + i]);
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) { perror("/dev/uinput"); return 1; }
    ioctl(fd, UI_SET_EVBIT, EV_SYN);
    ioctl(fd, UI_SET_EVBIT, EV_KEY);
    ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH);
    ioctl(fd, UI_SET_EVBIT, EV_ABS);
    int codes[] = { ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y };
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++) ioctl(fd, UI_SET_ABSBIT, codes[i]);
    ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
    abs_setup(ABS_X, w - 1); abs_setup(ABS_Y, h - 1);
    abs_setup(ABS_MT_POSITION_X, w - 1); abs_setup(ABS_MT_POSITION_Y, h - 1);
    abs_setup(ABS_MT_SLOT, 9); abs_setup(ABS_MT_TRACKING_ID, 65535);
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL; setup.id.vendor = 0x1209; setup.id.product = 0x6c64;
    strcpy(setup.name, argc == 11 ? "Glide skewed touchscreen" : "Glide virtual touchscreen");
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) { perror("UI_DEV_CREATE"); return 1; }
    fprintf(stderr, "uinput-touch: %dx%d touchscreen created%s\n", w, h, argc == 11 ? " (skewed)" : "");

    int n = 0;
    char line[256];
    for (;;) {
        FILE *in = fopen(argv[3], "r");   // blocks until a writer opens the FIFO
        if (!in) { perror(argv[3]); return 1; }
        while (fgets(line, sizeof line, in)) {
            int x1, y1, x2, y2, ms, steps;
            if (sscanf(line, "swipe %d %d %d %d %d %d", &x1, &y1, &x2, &y2, &ms, &steps) == 6 && steps > 0) {
                down(x1, y1);
                for (int i = 1; i <= steps; i++) {
                    sleep_ms(ms / steps);
                    move(x1 + (x2 - x1) * i / steps, y1 + (y2 - y1) * i / steps);
                }
                sleep_ms(10);
                up();
            } else if (sscanf(line, "tap %d %d", &x1, &y1) == 2) {
                down(x1, y1);
                sleep_ms(60);
                up();
            } else if (strncmp(line, "quit", 4) == 0) {
                ioctl(fd, UI_DEV_DESTROY);
                return 0;
            } else {
                fprintf(stderr, "uinput-touch: unknown command: %s", line);
            }
            n++;
            FILE *ack = fopen(argv[4], "w");
            if (ack) { fprintf(ack, "done %d\n", n); fclose(ack); }
        }
        fclose(in);
    }
}
