/*
 * ast.h - the syntax tree of a .nsm file, exactly as written.
 *
 * Statements keep the user's spelling: names, unit text, `for` loops and
 * index expressions are resolved later by sema.  Expressions are Nodes,
 * statements are Stmts; both carry the source location of their text.
 */
#ifndef NSM_AST_H
#define NSM_AST_H

#include <stdbool.h>
#include <stdio.h>

#include "arena.h"
#include "diag.h"

/* Deeper expressions are refused, so that every recursive walk is bounded. */
enum { AST_MAX_DEPTH = 256 };

typedef enum NodeKind {
    N_NUM,    /* num, optional unit text */
    N_NAME,   /* name */
    N_INDEX,  /* name[a] */
    N_RANGE,  /* name[a..b] (only in `mass`) */
    N_MEMBER, /* a.name, a is N_NAME or N_INDEX */
    N_NEG,    /* -a */
    N_BIN,    /* a op b, op is '+', '-', '*', '/', '^' */
    N_CMP,    /* a op b, op is an ExprCmp */
    N_AND, N_OR, N_NOT,
    N_CALL,   /* name(args) */
    N_IF,     /* if a then b else c */
    N_TUPLE,  /* (a, b) or (a, b, c): a direction, a point, a vector in space */
    N_LABEL   /* a = b in an output list: column a (a name) is the expression b */
} NodeKind;

typedef struct Node Node;
struct Node {
    NodeKind kind;
    SrcLoc loc;
    int op;
    double num;
    const char *unit;  /* N_NUM: unit text or NULL */
    SrcLoc unit_loc;
    const char *name;  /* N_NAME, N_INDEX, N_RANGE, N_MEMBER (the field), N_CALL */
    SrcLoc name_loc;   /* N_MEMBER: the field */
    Node *a, *b, *c;
    Node **args;
    int nargs;
    int depth;
};

/* `key = value` in an option list, or `target = value` in `init`.  A value may
 * be the keyword `gap` or `force` (penalty release), kept in `word`. */
typedef struct Opt Opt;
struct Opt {
    const char *key;   /* NULL in `init` */
    SrcLoc key_loc;
    Node *target;      /* `init` only */
    Node *value;       /* NULL when `word` is set */
    const char *word;
    SrcLoc loc;        /* the whole item */
    Opt *next;
};

typedef struct NodeList {
    Node **items;
    int n, cap;
} NodeList;

typedef enum StmtKind {
    S_MODEL, S_PARAM, S_MASS, S_SPRING, S_DAMPER, S_FORCE, S_GRAVITY,
    S_GAP, S_INIT, S_SIMULATE, S_OUTPUT, S_FOR, S_FRICTION,
    S_DISC, S_BODY, S_WALL,  /* planar bodies and walls */
    S_COORDINATE, S_KINETIC, S_POTENTIAL, /* Lagrangian models: coordinates and energies */
    S_RIGID, S_TORQUE, /* bodies in space: a rigid body, a torque on one (body frame) */
    S_PLANE, S_SPHERE  /* a fixed plane; a sphere gap of a rigid body against one */
} StmtKind;

typedef struct Stmt Stmt;
struct Stmt {
    StmtKind kind;
    SrcLoc loc;        /* the keyword */
    const char *name;  /* S_MODEL, S_PARAM, S_FOR (loop variable) */
    SrcLoc name_loc;
    const char *title; /* S_MODEL, NULL when absent */
    Node *label;       /* optional name of spring/damper/force/gap; the body of mass */
    Node *a, *b;       /* link ends; force target (a); loop bounds; gravity's direction (a);
                          wall: its body (a); sphere gap: its body (a), its plane (b),
                          the member's word in name */
    Node *value;       /* param, mass, force, gravity, gap condition, output every */
    Opt *opts;         /* spring/damper/simulate/disc/wall options, init items, law options */
    Opt *law_opts;     /* S_WALL, S_SPHERE: the options of its law (opts holds its geometry) */
    const char *law;   /* S_GAP: its law's word (laws.c); S_FRICTION: the surface's word;
                          S_COORDINATE: its kind, "length" or "angle" */
    Opt *surface;      /* S_FRICTION: the surface's options, NULL for none */
    SrcLoc law_loc;
    NodeList items;    /* S_OUTPUT */
    Stmt *body;        /* S_FOR */
    Stmt *next;
};

typedef struct Ast {
    Arena *arena;
    Stmt *first, *last;
    int n_stmts;
    bool too_deep;     /* set by a constructor when AST_MAX_DEPTH is exceeded */
    SrcLoc deep_loc;
} Ast;

Ast *ast_new(Arena *a);
void ast_append(Ast *ast, Stmt *s);

/* Location covering a through b (b on the same line), else a. */
SrcLoc ast_span(SrcLoc a, SrcLoc b);

Node *ast_num(Ast *ast, SrcLoc loc, double v, const char *unit, SrcLoc unit_loc);
Node *ast_name(Ast *ast, SrcLoc loc, const char *name);
Node *ast_index(Ast *ast, SrcLoc loc, const char *name, Node *index, SrcLoc end);
Node *ast_range(Ast *ast, SrcLoc loc, const char *name, Node *lo, Node *hi, SrcLoc end);
Node *ast_member(Ast *ast, Node *base, const char *field, SrcLoc field_loc);
Node *ast_unary(Ast *ast, NodeKind kind, SrcLoc op, Node *a);
Node *ast_binary(Ast *ast, NodeKind kind, int op, Node *a, Node *b);
Node *ast_call(Ast *ast, SrcLoc loc, const char *name, NodeList args, SrcLoc end);
Node *ast_if(Ast *ast, SrcLoc loc, Node *c, Node *a, Node *b);
Node *ast_paren(Ast *ast, Node *a, SrcLoc open, SrcLoc close);
Node *ast_tuple(Ast *ast, Node *a, Node *b, SrcLoc open, SrcLoc close);
Node *ast_tuple3(Ast *ast, Node *a, Node *b, Node *c, SrcLoc open, SrcLoc close);
void ast_list_push(Ast *ast, NodeList *l, Node *n);

Stmt *ast_stmt(Ast *ast, StmtKind kind, SrcLoc loc);
Opt *ast_opt(Ast *ast, const char *key, SrcLoc key_loc, Node *target, Node *value,
             const char *word, SrcLoc loc);

/* Prints the tree for `nsmc --dump=ast`. */
void ast_dump(const Ast *ast, FILE *out);

#endif
