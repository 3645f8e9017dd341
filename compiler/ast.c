/* ast.c - syntax tree construction and the `--dump=ast` printer. */
#include "ast.h"

#include <string.h>

#include "expr.h"

Ast *ast_new(Arena *a)
{
    Ast *ast = arena_alloc(a, sizeof *ast);
    ast->arena = a;
    return ast;
}

void ast_append(Ast *ast, Stmt *s)
{
    if (!s)
        return;
    if (ast->last)
        ast->last->next = s;
    else
        ast->first = s;
    ast->last = s;
    ast->n_stmts++;
}

SrcLoc ast_span(SrcLoc a, SrcLoc b)
{
    if (a.line != b.line || b.col + b.len <= a.col)
        return a;
    return (SrcLoc){a.line, a.col, b.col + b.len - a.col};
}

/* Allocates a node; its depth is one more than its deepest child. */
static Node *node_new(Ast *ast, NodeKind kind, SrcLoc loc, Node *a, Node *b, Node *c)
{
    Node *n = arena_alloc(ast->arena, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    n->a = a;
    n->b = b;
    n->c = c;
    int d = 0;
    if (a && a->depth > d)
        d = a->depth;
    if (b && b->depth > d)
        d = b->depth;
    if (c && c->depth > d)
        d = c->depth;
    n->depth = d + 1;
    if (n->depth > AST_MAX_DEPTH && !ast->too_deep) {
        ast->too_deep = true;
        ast->deep_loc = loc;
    }
    return n;
}

Node *ast_num(Ast *ast, SrcLoc loc, double v, const char *unit, SrcLoc unit_loc)
{
    Node *n = node_new(ast, N_NUM, unit ? ast_span(loc, unit_loc) : loc, NULL, NULL, NULL);
    n->num = v;
    n->unit = unit;
    n->unit_loc = unit_loc;
    return n;
}

Node *ast_name(Ast *ast, SrcLoc loc, const char *name)
{
    Node *n = node_new(ast, N_NAME, loc, NULL, NULL, NULL);
    n->name = name;
    return n;
}

Node *ast_index(Ast *ast, SrcLoc loc, const char *name, Node *index, SrcLoc end)
{
    Node *n = node_new(ast, N_INDEX, ast_span(loc, end), index, NULL, NULL);
    n->name = name;
    return n;
}

Node *ast_range(Ast *ast, SrcLoc loc, const char *name, Node *lo, Node *hi, SrcLoc end)
{
    Node *n = node_new(ast, N_RANGE, ast_span(loc, end), lo, hi, NULL);
    n->name = name;
    return n;
}

Node *ast_member(Ast *ast, Node *base, const char *field, SrcLoc field_loc)
{
    Node *n = node_new(ast, N_MEMBER, ast_span(base->loc, field_loc), base, NULL, NULL);
    n->name = field;
    n->name_loc = field_loc;
    return n;
}

Node *ast_unary(Ast *ast, NodeKind kind, SrcLoc op, Node *a)
{
    return node_new(ast, kind, ast_span(op, a->loc), a, NULL, NULL);
}

Node *ast_binary(Ast *ast, NodeKind kind, int op, Node *a, Node *b)
{
    Node *n = node_new(ast, kind, ast_span(a->loc, b->loc), a, b, NULL);
    n->op = op;
    return n;
}

Node *ast_call(Ast *ast, SrcLoc loc, const char *name, NodeList args, SrcLoc end)
{
    Node *n = node_new(ast, N_CALL, ast_span(loc, end), NULL, NULL, NULL);
    n->name = name;
    n->args = args.items;
    n->nargs = args.n;
    for (int i = 0; i < args.n; i++)
        if (args.items[i]->depth + 1 > n->depth)
            n->depth = args.items[i]->depth + 1;
    if (n->depth > AST_MAX_DEPTH && !ast->too_deep) {
        ast->too_deep = true;
        ast->deep_loc = n->loc;
    }
    return n;
}

Node *ast_if(Ast *ast, SrcLoc loc, Node *c, Node *a, Node *b)
{
    return node_new(ast, N_IF, ast_span(loc, b->loc), c, a, b);
}

/* A pair (a, b), spanning its parentheses. */
Node *ast_tuple(Ast *ast, Node *a, Node *b, SrcLoc open, SrcLoc close)
{
    return node_new(ast, N_TUPLE, ast_span(open, close), a, b, NULL);
}

/* A triple (a, b, c), a vector in space, spanning its parentheses. */
Node *ast_tuple3(Ast *ast, Node *a, Node *b, Node *c, SrcLoc open, SrcLoc close)
{
    return node_new(ast, N_TUPLE, ast_span(open, close), a, b, c);
}

/* Parentheses only widen the location (so carets cover them); nesting still
 * counts towards the depth limit, since the parser recursed on it. */
Node *ast_paren(Ast *ast, Node *a, SrcLoc open, SrcLoc close)
{
    a->loc = ast_span(open, close);
    a->depth++;
    if (a->depth > AST_MAX_DEPTH && !ast->too_deep) {
        ast->too_deep = true;
        ast->deep_loc = a->loc;
    }
    return a;
}

void ast_list_push(Ast *ast, NodeList *l, Node *n)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        Node **items = arena_alloc(ast->arena, sizeof *items * (size_t)cap);
        if (l->n)
            memcpy(items, l->items, sizeof *items * (size_t)l->n);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = n;
}

Stmt *ast_stmt(Ast *ast, StmtKind kind, SrcLoc loc)
{
    Stmt *s = arena_alloc(ast->arena, sizeof *s);
    s->kind = kind;
    s->loc = loc;
    return s;
}

Opt *ast_opt(Ast *ast, const char *key, SrcLoc key_loc, Node *target, Node *value,
             const char *word, SrcLoc loc)
{
    Opt *o = arena_alloc(ast->arena, sizeof *o);
    o->key = key;
    o->key_loc = key_loc;
    o->target = target;
    o->value = value;
    o->word = word;
    o->loc = loc;
    return o;
}

/* ---- printer ---------------------------------------------------------- */

static const char *cmp_text(int op)
{
    switch (op) {
    case CMP_LT: return "<";
    case CMP_LE: return "<=";
    case CMP_GT: return ">";
    case CMP_GE: return ">=";
    case CMP_EQ: return "==";
    default: return "!=";
    }
}

/* Writes an expression as a parenthesised prefix form: (+ a b), (. M1 x). */
static void dump_node(const Node *n, FILE *out)
{
    if (!n) {
        fputs("?", out);
        return;
    }
    switch (n->kind) {
    case N_NUM:
        if (n->unit)
            fprintf(out, "(%.15g %s)", n->num, n->unit);
        else
            fprintf(out, "%.15g", n->num);
        return;
    case N_NAME:
        fputs(n->name, out);
        return;
    case N_INDEX:
        fprintf(out, "(index %s ", n->name);
        dump_node(n->a, out);
        fputc(')', out);
        return;
    case N_RANGE:
        fprintf(out, "(range %s ", n->name);
        dump_node(n->a, out);
        fputc(' ', out);
        dump_node(n->b, out);
        fputc(')', out);
        return;
    case N_MEMBER:
        fputs("(. ", out);
        dump_node(n->a, out);
        fprintf(out, " %s)", n->name);
        return;
    case N_NEG:
    case N_NOT:
        fputs(n->kind == N_NEG ? "(neg " : "(not ", out);
        dump_node(n->a, out);
        fputc(')', out);
        return;
    case N_BIN:
    case N_CMP:
    case N_AND:
    case N_OR:
        if (n->kind == N_BIN)
            fprintf(out, "(%c ", n->op);
        else if (n->kind == N_CMP)
            fprintf(out, "(%s ", cmp_text(n->op));
        else
            fputs(n->kind == N_AND ? "(and " : "(or ", out);
        dump_node(n->a, out);
        fputc(' ', out);
        dump_node(n->b, out);
        fputc(')', out);
        return;
    case N_LABEL:
        fputs("(column ", out);
        dump_node(n->a, out);
        fputc(' ', out);
        dump_node(n->b, out);
        fputc(')', out);
        return;
    case N_TUPLE:
        fputs("(tuple ", out);
        dump_node(n->a, out);
        fputc(' ', out);
        dump_node(n->b, out);
        if (n->c) {
            fputc(' ', out);
            dump_node(n->c, out);
        }
        fputc(')', out);
        return;
    case N_CALL:
        fprintf(out, "(call %s", n->name);
        for (int i = 0; i < n->nargs; i++) {
            fputc(' ', out);
            dump_node(n->args[i], out);
        }
        fputc(')', out);
        return;
    case N_IF:
        fputs("(if ", out);
        dump_node(n->a, out);
        fputc(' ', out);
        dump_node(n->b, out);
        fputc(' ', out);
        dump_node(n->c, out);
        fputc(')', out);
        return;
    }
}

static const char *stmt_word(StmtKind k)
{
    static const char *const words[] = {"model", "param", "mass", "spring", "damper", "force",
                                        "gravity", "gap", "init", "simulate", "output", "for",
                                        "friction", "disc", "body", "wall",
                                        "coordinate", "kinetic", "potential", "rigid", "torque",
                                        "plane", "gap"};
    return words[k];
}

/* Writes option lines "key = value", indented under their statement. */
static void dump_opts(const Opt *o, int indent, FILE *out)
{
    for (; o; o = o->next) {
        fprintf(out, "%*s", indent + 2, "");
        if (o->target && !o->key)
            dump_node(o->target, out);
        else
            fputs(o->key, out);
        fputs(" = ", out);
        if (o->word) {
            fputs(o->word, out);
            if (o->target && o->key) {
                fputc(' ', out);
                dump_node(o->target, out);
            }
        } else
            dump_node(o->value, out);
        fputc('\n', out);
    }
}

/* Writes `before`, the node n and `after`: the statements' dumps are runs
** of such parts. */
static void dump_part(const char *before, const Node *n, const char *after, FILE *out)
{
    fputs(before, out);
    dump_node(n, out);
    fputs(after, out);
}

/* A statement's optional label, " NAME:". */
static void dump_label(const Stmt *s, FILE *out)
{
    if (s->label)
        dump_part(" ", s->label, ":", out);
}

/* Writes a statement as a line "LINE:COL word ...", then its option lines
** and the statements it holds, indented. */
static void dump_stmt(const Stmt *s, int indent, FILE *out)
{
    fprintf(out, "%*s%d:%d %s", indent, "", s->loc.line, s->loc.col, stmt_word(s->kind));
    switch (s->kind) {
    case S_MODEL:
        fprintf(out, " %s", s->name);
        if (s->title)
            fprintf(out, " \"%s\"", s->title);
        fputc('\n', out);
        return;
    case S_PARAM:
        fprintf(out, " %s = ", s->name);
        dump_part("", s->value, "\n", out);
        return;
    case S_MASS:
    case S_KINETIC:
    case S_POTENTIAL:
        dump_part(" ", s->label, " = ", out);
        dump_part("", s->value, "\n", out);
        return;
    case S_SPRING:
    case S_DAMPER:
        dump_label(s, out);
        dump_part(" ", s->a, " -- ", out);
        dump_part("", s->b, "\n", out);
        dump_opts(s->opts, indent, out);
        return;
    case S_FORCE:
    case S_TORQUE:
        dump_label(s, out);
        dump_part(" on ", s->a, " = ", out);
        dump_part("", s->value, "\n", out);
        return;
    case S_GRAVITY:
        fputc(' ', out);
        if (s->label)
            dump_part("", s->label, " = ", out);
        dump_node(s->value, out);
        if (s->a)
            dump_part(" along ", s->a, "", out);
        fputc('\n', out);
        return;
    case S_SPHERE:   /* a sphere gap: its body and plane, its options, the law's */
        dump_part(" ", s->label, ": ", out);
        dump_node(s->a, out);
        fprintf(out, ".%s above ", s->name);
        dump_node(s->b, out);
        fprintf(out, " %s\n", s->law);
        dump_opts(s->opts, indent, out);
        dump_opts(s->law_opts, indent, out);
        return;
    case S_DISC:
    case S_BODY:
    case S_RIGID:
    case S_PLANE:
        dump_part(" ", s->label, "\n", out);
        dump_opts(s->opts, indent, out);
        return;
    case S_COORDINATE:
        dump_part(" ", s->label, "", out);
        fprintf(out, ": %s\n", s->law);
        return;
    case S_WALL:   /* a wall: its disc, then the wall's options and the law's */
    case S_GAP:    /* a gap: its expression, then the law's options */
        dump_label(s, out);
        dump_part(" ", s->kind == S_WALL ? s->a : s->value, "", out);
        fprintf(out, " %s\n", s->law);
        dump_opts(s->opts, indent, out);
        if (s->kind == S_WALL)
            dump_opts(s->law_opts, indent, out);
        return;
    case S_INIT:
    case S_SIMULATE:
        fputc('\n', out);
        dump_opts(s->opts, indent, out);
        return;
    case S_OUTPUT:
        if (s->value)
            dump_part(" every ", s->value, "", out);
        fputc('\n', out);
        for (int i = 0; i < s->items.n; i++) {
            fprintf(out, "%*s", indent + 2, "");
            dump_part("", s->items.items[i], "\n", out);
        }
        return;
    case S_FRICTION:
        dump_part(" ", s->label, ":", out);
        if (s->a) {
            dump_part(" ", s->a, " -- ", out);
            if (s->b)
                dump_node(s->b, out);
            else
                fprintf(out, "%s(\n", s->law);
            if (s->surface)
                dump_opts(s->surface, indent + 2, out);
            if (!s->b)
                fprintf(out, "%*s)", indent + 2, "");
        }
        fputc('\n', out);
        dump_opts(s->opts, indent, out);
        return;
    case S_FOR:
        fprintf(out, " %s in ", s->name);
        dump_part("", s->a, " .. ", out);
        dump_part("", s->b, "\n", out);
        dump_stmt(s->body, indent + 2, out);
        return;
    }
}

void ast_dump(const Ast *ast, FILE *out)
{
    for (const Stmt *s = ast->first; s; s = s->next)
        dump_stmt(s, 0, out);
}
