/*
** setfile.c: reading parameter files (`NAME = VALUE` lines, `#` comments)
** for the simulator's --set-file and `nsmc run --set-file`.
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsm/nsm.h"
#include "setfile.h"
#include "units.h"     /* the compiler's unit table (compiler/units.c), one for both */


/* Why a nonzero number that reads as 0 is refused (underflowed). */
#define UNDER_WHY "below the range of a double: it would be taken as 0 (nonzero doubles are " \
                  "at least 4.9e-324 in magnitude)"

/* Skip blanks. */
static char *skip_blank(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

/* A name as the language writes parameters: a letter or '_', then letters,
** digits and '_'.  Returns the end of the name, or s if there is none. */
static char *scan_name(char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return s;
    while (isalnum((unsigned char)*s) || *s == '_')
        s++;
    return s;
}

/* Parse one line (comment already cut off).  Returns 0 and fills name and
** the value's text (a number, optionally with a unit: setfile_value reads
** it), 1 for a blank line, -1 for a malformed one (msg says what is wrong). */
static int parse_line(char *s, char **name, char **value, const char **msg)
{
    s = skip_blank(s);
    if (*s == '\0' || *s == '\n')
        return 1;
    char *end = scan_name(s);
    if (end == s) {
        *msg = "expected a parameter name";
        return -1;
    }
    char *p = skip_blank(end);
    if (*p != '=') {
        *msg = "expected '=' after the parameter name";
        return -1;
    }
    *end = '\0';
    *name = s;
    p = skip_blank(p + 1);
    errno = 0;
    double v = setfile_strtod(p, &end);
    if (end != p && !isfinite(v)) {
        *msg = "the number after '=' is beyond the range of a double (at most 1.8e308 in "
               "magnitude)";
        return -1;
    }
    if (end != p && nsm_text_underflowed(p, end, v)) {
        *msg = "the number after '=' is " UNDER_WHY;
        return -1;
    }
    if (end != p && errno == ERANGE)
        errno = 0;      /* a subnormal is its rounding (setfile_value) */
    if (end == p || errno != 0) {
        *msg = "expected a number after '=' (SI, or followed by a unit)";
        return -1;
    }
    *value = p;
    return 0;
}

/* Reads a regular file of at most NSM_SETFILE_MAX bytes into a new
** NUL-terminated buffer.  Returns it, or NULL with err set. */
static char *read_small_file(const char *path, size_t *size, char *err, size_t errlen)
{
    /* non-blocking open: a FIFO without a writer must not hang */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    /* only a regular file of bounded size: /dev/zero or a FIFO must not hang */
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "cannot read '%s': not a regular file", path);
        fclose(f);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (st.st_size > NSM_SETFILE_MAX) {
        snprintf(err, errlen, "cannot read '%s': %lld bytes, more than the %d a parameter "
                 "file may hold", path, (long long)st.st_size, NSM_SETFILE_MAX);
        fclose(f);
        return NULL;
    }
    char *buf = malloc(NSM_SETFILE_MAX + 2);
    size_t n = buf ? fread(buf, 1, NSM_SETFILE_MAX + 1, f) : 0;
    int bad = !buf || ferror(f);
    int e = errno;
    fclose(f);
    if (bad || n > NSM_SETFILE_MAX) {
        snprintf(err, errlen, "cannot read '%s': %s", path,
                 !buf ? "out of memory" : bad ? strerror(e) : "the file grew while read");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *size = n;
    return buf;
}

/* The first byte of line p that a reader cannot see: a control character
** other than a tab; NULL when none.  A comment may hold anything else. */
static const char *odd_byte(const char *p)
{
    for (const char *q = p; *q; q++)
        if (((unsigned char)*q < 32 && *q != '\t') || *q == 127)
            return q;
    return NULL;
}

/* The first byte of line p (its comment cut off) outside ASCII; NULL when
** none.  Names, numbers and units are ASCII, as in the language. */
static const char *non_ascii(const char *p)
{
    for (const char *q = p; *q; q++)
        if ((unsigned char)*q >= 0x80)
            return q;
    return NULL;
}

/* Says which character starts at q (a byte >= 0x80) into buf: its code
** point, decoded from UTF-8, and the name of the invisible ones an editor
** leaves (a byte order mark, a no-break space), or the byte when it starts
** no UTF-8 sequence.  Shown raw between quotes, such a character cannot be
** seen ("expected a parameter name" with nothing to point at). */
static void char_named(const char *q, char *buf, size_t len)
{
    unsigned char c = (unsigned char)*q;
    int more = c >= 0xF0 && c < 0xF8 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
    unsigned cp = c & (more == 3 ? 0x07 : more == 2 ? 0x0F : 0x1F);
    for (int k = 1; k <= more; k++) {
        if (((unsigned char)q[k] & 0xC0) != 0x80) {
            more = -1;
            break;
        }
        cp = cp << 6 | ((unsigned char)q[k] & 0x3F);
    }
    if (more < 0) {
        snprintf(buf, len, "the byte 0x%02x (not UTF-8)", c);
        return;
    }
    snprintf(buf, len, "the character U+%04X%s", cp, cp == 0xFEFF ? " (a byte order mark)"
             : cp == 0xA0 ? " (a no-break space)" : cp == 0x200B ? " (a zero-width space)" : "");
}

/* Reads a parameter file without knowing the parameters' units; see setfile.h. */
int setfile_read(const char *path, SetfileFn fn, void *ud, char *err, size_t errlen)
{
    return setfile_read_units(path, fn, NULL, ud, err, errlen);
}

/* Reads a parameter file; see setfile.h. */
int setfile_read_units(const char *path, SetfileFn fn, SetfileUnitFn unit, void *ud, char *err,
                       size_t errlen)
{
    size_t size = 0;
    char *text = read_small_file(path, &size, err, errlen);
    int line = 0, rc = 0;
    if (!text)
        return NSM_EINVAL;
    char *nul = memchr(text, '\0', size);
    char *start = text;
    if (size >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        start += 3;     /* a UTF-8 byte order mark, as Notepad saves: taken as none */
    for (char *p = start; rc == 0 && p < text + size;) {
        char *nl = memchr(p, '\n', (size_t)(text + size - p));
        char *end = nl ? nl : text + size;
        line++;
        if (nul && nul < end) {
            snprintf(err, errlen, "%s:%d: not a text file (NUL byte)", path, line);
            rc = NSM_EINVAL;
            break;
        }
        *end = '\0';
        for (char *q = end; q > p && q[-1] == '\r';)
            *--q = '\0';      /* CRLF (saved on Windows), or CR CR LF (converted twice) */
        char *cr = strchr(p, '\r');
        if (cr) {
            /* shown raw, it moved the cursor back over the message */
            snprintf(err, errlen, "%s:%d:%d: a carriage return (\\r) inside the line; lines "
                     "end with LF or CRLF (a file with CR alone as its line end, saved by an old "
                     "Mac editor, needs converting)", path, line, (int)(cr - p) + 1);
            rc = NSM_EINVAL;
            break;
        }
        const char *odd = odd_byte(p);
        if (odd) {
            /* invisible in the message: '0.5\v' was "unknown unit ''" */
            snprintf(err, errlen, "%s:%d:%d: a control character (0x%02x) inside the line; "
                     "only tabs and spaces separate words", path, line, (int)(odd - p) + 1,
                     (unsigned char)*odd);
            rc = NSM_EINVAL;
            break;
        }
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        const char *wide = non_ascii(p);
        if (wide) {
            char what[80];
            char_named(wide, what, sizeof what);
            snprintf(err, errlen, "%s:%d:%d: %s outside a comment; names, numbers and units "
                     "are ASCII", path, line, (int)(wide - p) + 1, what);
            rc = NSM_EINVAL;
            break;
        }
        char *name = NULL, *text = NULL;
        double value = 0;
        const char *msg = "";
        int k = parse_line(p, &name, &text, &msg);
        if (k < 0) {
            snprintf(err, errlen, "%s:%d: %s; lines are NAME = VALUE", path, line, msg);
            rc = NSM_EINVAL;
        } else if (k == 0) {
            /* the parameter's unit when known; else (an unknown name, which
             * fn reports, or no unit function) any unit, converted to SI */
            const char *u = unit ? unit(ud, name) : NULL;
            char why[256];
            if (setfile_value(text, u, u ? 0 : 1, &value, why, sizeof why)) {
                snprintf(err, errlen, "%s:%d: bad value '%s' for '%s': %s", path, line, text,
                         name, why);
                rc = NSM_EINVAL;
            } else {
                rc = fn(ud, name, value, line);
            }
        }
        p = end + 1;
    }
    free(text);
    return rc;
}

/* Whether unit text names an angle's rate in radians ("rad/s") while the
** other names cycles ("Hz"), or the reverse: the dimensions agree (rad is
** 1) but the numbers differ by 2 pi, so such a value is refused. */
static int cycles_vs_radians(const char *a, const char *b)
{
    return (strstr(a, "Hz") && strstr(b, "rad")) || (strstr(a, "rad") && strstr(b, "Hz"));
}

/* Strips the blanks around s in place; see setfile.h. */
char *setfile_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
    return s;
}

/* Decimal strtod; see setfile.h.  strtod itself also reads hexadecimal
** floats and inf/nan: the decimal characters' span bounds what it may
** take, and anything longer is no number at all. */
double setfile_strtod(const char *s, char **end)
{
    const char *p = s;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t span = strspn(p, "0123456789+-.eE");
    double v = strtod(s, end);
    if (*end > p + span) {
        *end = (char *)s;
        return 0;
    }
    return v;
}

/* A whole number of an option, or why not (see setfile.h). */
const char *setfile_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = setfile_strtod(s, &end);
    if (!*s || end == s || *end)
        return "not a decimal number";
    if (!isfinite(*v))
        return "beyond the range of a double (at most 1.8e308 in magnitude)";
    if (nsm_text_underflowed(s, end, *v))
        return UNDER_WHY;
    return NULL;
}

/* Parses a --set value; see setfile.h. */
int setfile_value(const char *text, const char *unit, int any, double *value, char *err,
                  size_t errlen)
{
    char *end;
    errno = 0;
    double v = setfile_strtod(text, &end);
    if (end != text && !isfinite(v)) {
        snprintf(err, errlen, "'%.*s' is beyond the range of a double (at most 1.8e308 in "
                 "magnitude)", (int)(end - text), text);
        return -1;
    }
    if (end != text && nsm_text_underflowed(text, end, v)) {
        snprintf(err, errlen, "'%.*s' is %s", (int)(end - text), text, UNDER_WHY);
        return -1;
    }
    if (end != text && errno == ERANGE)
        errno = 0;      /* a subnormal (1e-320) is its rounding, as Python's float() takes it */
    const char *numend = end;
    if (end == text || errno != 0) {
        snprintf(err, errlen, "expected a number, optionally followed by a unit ('2.5', "
                 "'2.5 N/m')");
        return -1;
    }
    while (*end == ' ' || *end == '\t')
        end++;
    size_t n = strlen(end);
    while (n > 0 && (end[n - 1] == ' ' || end[n - 1] == '\t'))
        n--;
    if (n == 0) {
        *value = v;     /* a bare number is in SI units */
        return 0;
    }
    char ut[64];
    const char *pu = unit ? unit : "";
    double scale, pscale;
    Dim dim, pdim = dim_none();
    if (n >= sizeof ut || (memcpy(ut, end, n), ut[n] = '\0', !unit_parse(ut, &scale, &dim))) {
        snprintf(err, errlen, "unknown unit '%.*s' (units are written as in the language: "
                 "N/m, kN, ms, m/s^2, N*s/m)", (int)n, end);
        return -1;
    }
    if (!isfinite(v * scale)) {
        snprintf(err, errlen, "%g %s is %g x %g in SI units, more than the largest double "
                 "(1.8e308)", v, ut, v, scale);
        return -1;
    }
    if (v != 0 && v * scale == 0) {
        snprintf(err, errlen, "'%.*s %s' is %.*s x %g in SI units, %s", (int)(numend - text),
                 text, ut, (int)(numend - text), text, scale, UNDER_WHY);
        return -1;
    }
    if (any) {
        *value = v * scale;     /* the parameter's unit is not known here */
        return 0;
    }
    if (*pu && !unit_parse(pu, &pscale, &pdim)) {
        snprintf(err, errlen, "the parameter's unit '%s' is not known here: give the value "
                 "in it without a unit", pu);
        return -1;
    }
    if (cycles_vs_radians(ut, pu)) {
        snprintf(err, errlen, "'%s' is not the parameter's %s: Hz counts cycles, rad/s "
                 "radians (1 Hz = 2*pi rad/s); convert the value", ut, pu);
        return -1;
    }
    if (!dim_equal(dim, pdim)) {
        if (*pu)
            snprintf(err, errlen, "'%s' is not a unit of %s, the parameter's unit", ut, pu);
        else
            snprintf(err, errlen, "'%s' given for a dimensionless parameter (give the number "
                     "alone)", ut);
        return -1;
    }
    *value = v * scale;
    return 0;
}
