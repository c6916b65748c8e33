// Cairo, the 2D graphics library the charts are drawn with (Debian: libcairo2-dev).
#include <cairo.h>
