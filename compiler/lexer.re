/* lexer.re - the .nsm lexer; re2c turns it into gen/lexer.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "parser.h"
#include "units.h"

void lex_init(Lexer *lx, const Source *src, Diag *d)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->diag = d;
    lx->cur = src->text;
    lx->line_start = src->text;
    lx->line = 1;
    lx->last = -2;
}

static SrcLoc loc_at(const Lexer *lx, const char *start, const char *end)
{
    int len = (int)(end - start);
    return (SrcLoc){lx->line, (int)(start - lx->line_start) + 1, len < 1 ? 1 : len};
}

static Token make(Lexer *lx, int kind, const char *start, const char *end)
{
    Token t = {kind, start, (int)(end - start), loc_at(lx, start, end), 0};
    return t;
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

static bool is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* After a number at `p`: finds the longest run of known unit atoms joined by
 * '*' or '/', each with an optional '^-?digits', that is not followed by an
 * identifier character.  Returns its end, or NULL when there is none. */
static const char *scan_unit(const char *p)
{
    const char *best = NULL;
    for (;;) {
        const char *a = p;
        while (is_letter(*p))
            p++;
        if (p == a || !unit_is_atom(a, (int)(p - a)))
            return best;
        if (*p == '^') {
            const char *q = p + 1;
            if (*q == '-')
                q++;
            if (*q >= '0' && *q <= '9') {
                while (*q >= '0' && *q <= '9')
                    q++;
                p = q;
            }
        }
        if (is_ident_char(*p))
            return best;
        best = p;
        if ((*p != '*' && *p != '/') || !is_letter(p[1]))
            return best;
        p++;
    }
}

static const struct {
    const char *word;
    int kind;
} keywords[] = {
    {"model", TK_MODEL},     {"param", TK_PARAM},   {"mass", TK_MASS},
    {"spring", TK_SPRING},   {"damper", TK_DAMPER}, {"for", TK_FOR},
    {"in", TK_IN},           {"force", TK_FORCE},   {"on", TK_ON},
    {"gravity", TK_GRAVITY}, {"gap", TK_GAP},       {"init", TK_INIT},
    {"simulate", TK_SIMULATE}, {"output", TK_OUTPUT}, {"every", TK_EVERY},
    {"if", TK_IF},           {"then", TK_THEN},     {"else", TK_ELSE},
    {"and", TK_AND},         {"or", TK_OR},         {"not", TK_NOT},
    {"friction", TK_FRICTION},
};

/* Words that are keywords only where the grammar expects them (a statement's
 * first word, `along` after gravity's value) and names everywhere else, so
 * that a gap may still be called `wall`.  parse.c turns an IDENT into one of
 * these when the parser would shift the keyword there and not a name. */
static const struct {
    const char *word;
    int kind;
} context_words[] = {
    {"disc", TK_DISC}, {"body", TK_BODY}, {"wall", TK_WALL}, {"along", TK_ALONG},
    {"coordinate", TK_COORDINATE}, {"kinetic", TK_KINETIC}, {"potential", TK_POTENTIAL},
    {"rigid", TK_RIGID}, {"torque", TK_TORQUE}, {"plane", TK_PLANE}, {"above", TK_ABOVE},
};

int lex_context_keyword(const char *s, int len)
{
    for (size_t i = 0; i < sizeof context_words / sizeof context_words[0]; i++)
        if ((int)strlen(context_words[i].word) == len && memcmp(context_words[i].word, s, (size_t)len) == 0)
            return context_words[i].kind;
    return 0;
}

static int keyword(const char *s, int len)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if ((int)strlen(keywords[i].word) == len && memcmp(keywords[i].word, s, (size_t)len) == 0)
            return keywords[i].kind;
    return TK_IDENT;
}

/* Whether the number text s, read as v, is nonzero but read as 0 (it
** underflowed: 1e-400); a text of zeros ("0.0e-999") is 0 indeed. */
static bool number_underflowed(const char *s, double v)
{
    if (v != 0)
        return false;
    for (; *s && *s != 'e' && *s != 'E'; s++)
        if (*s >= '1' && *s <= '9')
            return true;
    return false;
}

/* Converts the number's text; refuses values that overflow a double or
** that underflow to 0 from a nonzero text. */
static Token number(Lexer *lx, const char *start, const char *end)
{
    Token t = make(lx, TK_NUMBER, start, end);
    char buf[64];
    if (end - start >= (long)sizeof buf) {
        diag_error(lx->diag, t.loc, "number too long (more than %d characters)",
                   (int)sizeof buf - 1);
        t.kind = LEX_ERROR;
        return t;
    }
    memcpy(buf, start, (size_t)(end - start));
    buf[end - start] = '\0';
    t.num = strtod(buf, NULL);
    if (!isfinite(t.num)) {
        diag_error(lx->diag, t.loc, "number out of range");
        t.kind = LEX_ERROR;
        return t;
    }
    if (number_underflowed(buf, t.num)) {
        diag_error(lx->diag, t.loc, "number out of range: '%s' is below the range of a double "
                   "and would be taken as 0 (nonzero doubles are at least 4.9e-324 in "
                   "magnitude)", buf);
        t.kind = LEX_ERROR;
        return t;
    }
    const char *u = end;
    while (*u == ' ' || *u == '\t')
        u++;
    const char *ue = scan_unit(u);
    if (ue) {
        lx->has_pending = true;
        lx->pending = make(lx, TK_UNIT, u, ue);
        lx->cur = ue;
    }
    return t;
}

/* Reports a byte that starts no token; shows it escaped when not printable. */
static Token stray(Lexer *lx, const char *start)
{
    unsigned char c = (unsigned char)*start;
    const char *end = start + 1;
    Token t = make(lx, LEX_ERROR, start, end);
    if (c >= 0x80) {
        /* the code point too: a byte order mark or a zero-width space is
         * invisible between the quotes (the text is valid UTF-8, source.c) */
        unsigned cp = c & (c >= 0xF0 ? 0x07 : c >= 0xE0 ? 0x0F : 0x1F);
        while ((*end & 0xC0) == 0x80)
            cp = cp << 6 | (*end++ & 0x3F);
        diag_error(lx->diag, t.loc, "stray character '%.*s' (U+%04X; only ASCII is allowed outside "
                   "strings and comments)", (int)(end - start), start, cp);
    } else if (c < 32 || c == 127)
        diag_error(lx->diag, t.loc, "stray control character 0x%02x", c);
    else
        diag_error(lx->diag, t.loc, "stray character '%c'", c);
    return t;
}

/* Returns a token that ends at the re2c cursor and moves past it. */
static Token punct(Lexer *lx, int kind, const char *start, const unsigned char *end)
{
    lx->cur = (const char *)end;
    return make(lx, kind, start, lx->cur);
}

static Token scan(Lexer *lx)
{
    const unsigned char *mar;
    for (;;) {
        const char *start = lx->cur;
        const unsigned char *ucur = (const unsigned char *)lx->cur;
/*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:define:YYCURSOR = ucur;
        re2c:define:YYMARKER = mar;
        re2c:yyfill:enable = 0;

        digit = [0-9];
        ident = [A-Za-z_][A-Za-z0-9_]*;
        num   = digit+ ("." digit+)? ([eE] [+-]? digit+)?;

        "\x00" { const char *cur = (const char *)ucur; lx->cur = cur - 1; return make(lx, 0, start, start); }
        [ \t\r\f\v]+ { const char *cur = (const char *)ucur; lx->cur = cur; continue; }
        "#" [^\n\x00]* { const char *cur = (const char *)ucur; lx->cur = cur; continue; }
        "\n" {
            const char *cur = (const char *)ucur;
            Token t = make(lx, TK_NEWLINE, start, cur);
            lx->cur = cur;
            lx->line++;
            lx->line_start = cur;
            return t;
        }
        num { const char *cur = (const char *)ucur; lx->cur = cur; return number(lx, start, cur); }
        ident {
            const char *cur = (const char *)ucur;
            lx->cur = cur;
            return make(lx, keyword(start, (int)(cur - start)), start, cur);
        }
        ["] [^"\n\x00]* ["] { return punct(lx, TK_STRING, start, ucur); }
        ["] [^"\n\x00]* {
            const char *cur = (const char *)ucur;
            Token t = make(lx, LEX_ERROR, start, start + 1);
            diag_error(lx->diag, t.loc, "unterminated string");
            lx->cur = cur;
            return t;
        }
        "--" { return punct(lx, TK_LINK, start, ucur); }
        ".." { return punct(lx, TK_DOTDOT, start, ucur); }
        "."  { return punct(lx, TK_DOT, start, ucur); }
        "="  { return punct(lx, TK_ASSIGN, start, ucur); }
        "==" { return punct(lx, TK_EQ, start, ucur); }
        "!=" { return punct(lx, TK_NE, start, ucur); }
        "<"  { return punct(lx, TK_LT, start, ucur); }
        "<=" { return punct(lx, TK_LE, start, ucur); }
        ">"  { return punct(lx, TK_GT, start, ucur); }
        ">=" { return punct(lx, TK_GE, start, ucur); }
        ":"  { return punct(lx, TK_COLON, start, ucur); }
        ","  { return punct(lx, TK_COMMA, start, ucur); }
        "("  { return punct(lx, TK_LPAREN, start, ucur); }
        ")"  { return punct(lx, TK_RPAREN, start, ucur); }
        "["  { return punct(lx, TK_LBRACKET, start, ucur); }
        "]"  { return punct(lx, TK_RBRACKET, start, ucur); }
        "+"  { return punct(lx, TK_PLUS, start, ucur); }
        "-"  { return punct(lx, TK_MINUS, start, ucur); }
        "*"  { return punct(lx, TK_STAR, start, ucur); }
        "/"  { return punct(lx, TK_SLASH, start, ucur); }
        "^"  { return punct(lx, TK_CARET, start, ucur); }
        * { const char *cur = (const char *)ucur; lx->cur = cur; return stray(lx, start); }
*/
    }
}

Token lex_next(Lexer *lx)
{
    if (lx->has_pending) {
        lx->has_pending = false;
        lx->last = lx->pending.kind;
        return lx->pending;
    }
    for (;;) {
        Token t = scan(lx);
        if (t.kind == TK_NEWLINE && (lx->last == -2 || lx->last == TK_NEWLINE || lx->last == TK_COMMA))
            continue;
        if (t.kind == 0 && lx->last != -2 && lx->last != TK_NEWLINE && lx->last != LEX_ERROR) {
            /* The last statement ends at the end of the file. */
            t.kind = TK_NEWLINE;
        }
        lx->last = t.kind;
        return t;
    }
}

const char *lex_token_name(int kind)
{
    switch (kind) {
    case 0: return "EOF";
    case TK_NEWLINE: return "NEWLINE";
    case TK_IDENT: return "IDENT";
    case TK_NUMBER: return "NUMBER";
    case TK_UNIT: return "UNIT";
    case TK_STRING: return "STRING";
    case TK_LINK: return "'--'";
    case TK_DOTDOT: return "'..'";
    case TK_DOT: return "'.'";
    case TK_ASSIGN: return "'='";
    case TK_EQ: return "'=='";
    case TK_NE: return "'!='";
    case TK_LT: return "'<'";
    case TK_LE: return "'<='";
    case TK_GT: return "'>'";
    case TK_GE: return "'>='";
    case TK_COLON: return "':'";
    case TK_COMMA: return "','";
    case TK_LPAREN: return "'('";
    case TK_RPAREN: return "')'";
    case TK_LBRACKET: return "'['";
    case TK_RBRACKET: return "']'";
    case TK_PLUS: return "'+'";
    case TK_MINUS: return "'-'";
    case TK_STAR: return "'*'";
    case TK_SLASH: return "'/'";
    case TK_CARET: return "'^'";
    case LEX_ERROR: return "ERROR";
    default:
        for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
            if (keywords[i].kind == kind)
                return keywords[i].word;
        for (size_t i = 0; i < sizeof context_words / sizeof context_words[0]; i++)
            if (context_words[i].kind == kind)
                return context_words[i].word;
        return "?";
    }
}
