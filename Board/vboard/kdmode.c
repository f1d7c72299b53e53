/* Prints a virtual terminal's display mode and keyboard mode, for the virtual-board test:
 *   kdmode /dev/tty1   ->   "graphics off" while glide runs, "text unicode" (or xlate) after. */
#include <fcntl.h>
#include <linux/kd.h>
#include <stdio.h>
#include <sys/ioctl.h>

int main(int argc, char **argv) {
    int fd = open(argc > 1 ? argv[1] : "/dev/tty0", O_RDONLY | O_NOCTTY);
    int mode = -1, kb = -1;
    if (fd < 0 || ioctl(fd, KDGETMODE, &mode) < 0 || ioctl(fd, KDGKBMODE, &kb) < 0) { puts("unknown unknown"); return 1; }
    const char *kbs = kb == K_OFF ? "off" : kb == K_UNICODE ? "unicode" : kb == K_XLATE ? "xlate"
                    : kb == K_RAW ? "raw" : kb == K_MEDIUMRAW ? "mediumraw" : "other";
    printf("%s %s\n", mode == KD_GRAPHICS ? "graphics" : "text", kbs);
    return 0;
}
