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

#include "nsm/nsm.h"
#include "setfile.h"

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

/* Parse one line (comment already cut off).  Returns 0 and fills name/value,
** 1 for a blank line, -1 for a malformed one (msg says what is wrong). */
static int parse_line(char *s, char **name, double *value, const char **msg)
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
    *value = strtod(p, &end);
    if (end == p || errno != 0 || !isfinite(*value)) {
        *msg = "expected a number (SI units) after '='";
        return -1;
    }
    end = skip_blank(end);
    if (*end != '\0' && *end != '\n') {
        *msg = "unexpected text after the value (units are SI and not written)";
        return -1;
    }
    return 0;
}

/* Reads a parameter file; see setfile.h. */
int setfile_read(const char *path, SetfileFn fn, void *ud, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char buf[1024];
    int line = 0, rc = 0;
    if (!f) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return NSM_EINVAL;
    }
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        size_t n = strlen(buf);
        if (n == sizeof buf - 1 && buf[n - 1] != '\n' && !feof(f)) {
            snprintf(err, errlen, "%s:%d: line too long", path, line);
            rc = NSM_EINVAL;
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *name = NULL;
        double value = 0;
        const char *msg = "";
        int k = parse_line(buf, &name, &value, &msg);
        if (k < 0) {
            snprintf(err, errlen, "%s:%d: %s; lines are NAME = VALUE", path, line, msg);
            rc = NSM_EINVAL;
        } else if (k == 0) {
            rc = fn(ud, name, value, line);
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        rc = NSM_EINVAL;
    }
    fclose(f);
    return rc;
}
