/*
** ctext.c: numbers as text with a decimal point, whatever the locale.
**
** The library runs inside programs that may have set a locale with a
** decimal comma (a Python program after locale.setlocale(locale.LC_ALL,
** "de_DE.UTF-8")): printf and strtod follow the thread's LC_NUMERIC, and
** the runtime's messages said "invalid value 2,5", a section's
** "period:2.5" was refused and the Python helper's JSON held 10,5.  Every
** message, text and number the library writes or reads goes through here,
** under the C locale's LC_NUMERIC for the calling thread only (uselocale),
** the process's locale left alone.  Formatting into a buffer only: no I/O.
*/
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt.h"

/* The C locale's numbers, made once and kept for the process (threads
** may race to make it: the loser frees its own); (locale_t)0 when it
** cannot be made (no memory), and the thread's locale is then used. */
static locale_t c_numeric(void)
{
    static locale_t made;
    locale_t c = __atomic_load_n(&made, __ATOMIC_ACQUIRE);
    if (c)
        return c;
    locale_t mine = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (!mine)
        return (locale_t)0;
    locale_t none = (locale_t)0;
    if (__atomic_compare_exchange_n(&made, &none, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return mine;
    freelocale(mine);
    return none;
}

/* Makes the C locale's numbers the calling thread's (see nsm/nsm.h);
** saved->old is the locale to give back. */
void nsm_locale_c_begin(nsm_locale_saved *saved)
{
    locale_t c = c_numeric();
    saved->old = c ? (void *)uselocale(c) : NULL;
}

/* Gives the calling thread back the locale nsm_locale_c_begin replaced. */
void nsm_locale_c_end(nsm_locale_saved *saved)
{
    if (saved->old)
        uselocale((locale_t)saved->old);
    saved->old = NULL;
}

/* vsnprintf with a decimal point whatever the locale. */
int rt_text_vprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
    nsm_locale_saved saved;
    nsm_locale_c_begin(&saved);
    int n = vsnprintf(buf, len, fmt, ap);
    nsm_locale_c_end(&saved);
    return n;
}

/* snprintf with a decimal point whatever the locale. */
int rt_text_printf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = rt_text_vprintf(buf, len, fmt, ap);
    va_end(ap);
    return n;
}

/* strtod with a decimal point whatever the locale. */
double rt_text_strtod(const char *s, char **end)
{
    nsm_locale_saved saved;
    nsm_locale_c_begin(&saved);
    double v = strtod(s, end);
    nsm_locale_c_end(&saved);
    return v;
}

/* Whether the number text [s, end), which read as v, is nonzero but read
** as 0 (see nsm/nsm.h): it underflowed (1e-400), and 0 is not what the
** user wrote.  A text of zeros ("0", "0.0e-999") is 0 indeed: only the
** digits before the exponent tell.  One rule for every reader of numbers
** beside the compiler (--set, parameter files, options, sections). */
int nsm_text_underflowed(const char *s, const char *end, double v)
{
    if (v != 0)
        return 0;
    for (; s < end && *s != 'e' && *s != 'E'; s++)
        if (*s >= '1' && *s <= '9')
            return 1;
    return 0;
}

/* The shortest text (15 to 17 significant digits) that reads back as v,
** into buf (len bytes, 32 is enough); returns buf.  A value the user gave
** (0.1, 2.3) is shown as written, not as %.17g's 0.10000000000000001,
** and a computed one keeps every digit that tells it apart. */
const char *rt_text_shortest(char *buf, size_t len, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        rt_text_printf(buf, len, "%.*g", prec, v);
        if (rt_text_strtod(buf, NULL) == v)
            break;
    }
    return buf;
}
