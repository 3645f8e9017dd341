/*
 * parser.y - the grammar of .nsm files (lemon).  Actions only build the
 * syntax tree (ast.h); every check of meaning is in sema.c.
 */
%include {
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "expr.h"
#include "lex.h"
#include "parse.h"

/* Copies a token's text into the arena. */
static const char *tok_str(ParseState *ps, Token t)
{
    return arena_strndup(ps->ast->arena, t.text, (size_t)t.len);
}

typedef struct OptList {
    Opt *head, *tail;
} OptList;

static OptList opt_list(Opt *o)
{
    return (OptList){o, o};
}

static OptList opt_append(OptList l, Opt *o)
{
    l.tail->next = o;
    l.tail = o;
    return l;
}
}

%code {
/* The state numbers on the parser's stack, bottom first, into st; how many,
** or -1 when more than max.  parse.c keeps them from before each token, so
** that a syntax error can say what would have been accepted there. */
int NsmParseStates(void *parser, int *st, int max)
{
    yyParser *p = parser;
    int n = (int)(p->yytos - p->yystack) + 1;
    if (n > max)
        return -1;
    for (int i = 0; i < n; i++)
        st[i] = p->yystack[i].stateno;
    return n;
}

/* Number of terminal codes (0, the end of input, to NsmParseTerminals() - 1). */
int NsmParseTerminals(void)
{
    return YYNTOKEN;
}

/* Whether a parser with the states st[0..n) on its stack would shift the
** terminal `major`, after the reductions it calls for: the parser's own
** loop, run on a copy of the stack with no semantic actions. */
int NsmParseAccepts(const int *st, int n, int major)
{
    YYACTIONTYPE stack[YYSTACKDEPTH + 2];
    int top = n - 1;
    if (n <= 0 || n > YYSTACKDEPTH)
        return 0;
    for (int i = 0; i < n; i++)
        stack[i] = (YYACTIONTYPE)st[i];
    for (int guard = 0; guard < 100000; guard++) {
        YYACTIONTYPE act = yy_find_shift_action((YYCODETYPE)major, stack[top]);
        if (act < YY_MIN_REDUCE)
            return act <= YY_MAX_SHIFTREDUCE || act == YY_ACCEPT_ACTION;
        unsigned rule = act - YY_MIN_REDUCE;
        top += yyRuleInfoNRhs[rule];
        if (top < 0 || top + 1 >= YYSTACKDEPTH + 2)
            return 0;
        act = yy_find_reduce_action(stack[top], (YYCODETYPE)yyRuleInfoLhs[rule]);
        stack[++top] = act;
    }
    return 0;
}
}

%name NsmParse
%token_prefix TK_
%token_type {Token}
%extra_argument {ParseState *ps}
%start_symbol program
%stack_size 1000

%syntax_error {
    parse_syntax_error(ps, TOKEN);
}
%stack_overflow {
    parse_stack_overflow(ps);
}
%parse_failure {
    ps->failed = true;
}

%token NEWLINE IDENT NUMBER UNIT STRING.
%token MODEL PARAM MASS SPRING DAMPER FOR IN FORCE ON GRAVITY GAP INIT SIMULATE OUTPUT EVERY.
%token FRICTION.
%token DISC BODY WALL ALONG.
%token COORDINATE KINETIC POTENTIAL.
%token RIGID TORQUE PLANE ABOVE.
%token ASSIGN COLON COMMA LINK DOTDOT DOT LPAREN RPAREN LBRACKET RBRACKET.

%right IF THEN ELSE.
%left OR.
%left AND.
%right NOT.
%nonassoc EQ NE LT LE GT GE.
%left PLUS MINUS.
%left STAR SLASH.
%right UMINUS.
%right CARET.

%type stmt {Stmt *}
%type link {Stmt *}
%type expr {Node *}
%type primary {Node *}
%type ref {Node *}
%type opt {Opt *}
%type init {Opt *}
%type opts {OptList}
%type opts_tail {OptList}
%type law_opts {OptList}
%type inits {OptList}
%type args {NodeList}
%type items {NodeList}
%type item {Node *}

program ::= lines.
lines ::= .
lines ::= lines line.
line ::= NEWLINE.
line ::= stmt(S) NEWLINE. { ast_append(ps->ast, S); }

/* model NAME "title" */
stmt(S) ::= MODEL(K) IDENT(N). {
    S = ast_stmt(ps->ast, S_MODEL, K.loc);
    S->name = tok_str(ps, N);
    S->name_loc = N.loc;
}
stmt(S) ::= MODEL(K) IDENT(N) STRING(T). {
    S = ast_stmt(ps->ast, S_MODEL, K.loc);
    S->name = tok_str(ps, N);
    S->name_loc = N.loc;
    S->title = arena_strndup(ps->ast->arena, T.text + 1, (size_t)T.len - 2);
}

stmt(S) ::= PARAM(K) IDENT(N) ASSIGN expr(E). {
    S = ast_stmt(ps->ast, S_PARAM, K.loc);
    S->name = tok_str(ps, N);
    S->name_loc = N.loc;
    S->value = E;
}

stmt(S) ::= MASS(K) ref(R) ASSIGN expr(E). {
    S = ast_stmt(ps->ast, S_MASS, K.loc);
    S->label = R;
    S->value = E;
}

/* spring [NAME:] A -- B, k = ..., c = ..., rest = ... */
stmt(S) ::= SPRING(K) link(L) opts_tail(O). {
    S = L;
    S->kind = S_SPRING;
    S->loc = K.loc;
    S->opts = O.head;
}
stmt(S) ::= DAMPER(K) link(L) opts_tail(O). {
    S = L;
    S->kind = S_DAMPER;
    S->loc = K.loc;
    S->opts = O.head;
}
link(S) ::= target(A) LINK target(B). {
    S = ast_stmt(ps->ast, S_SPRING, A->loc);
    S->a = A;
    S->b = B;
}
link(S) ::= ref(N) COLON target(A) LINK target(B). {
    S = ast_stmt(ps->ast, S_SPRING, A->loc);
    S->label = N;
    S->a = A;
    S->b = B;
}
opts_tail(L) ::= . { L = (OptList){NULL, NULL}; }
opts_tail(L) ::= COMMA opts(O). { L = O; }
opts(L) ::= opt(O). { L = opt_list(O); }
opts(L) ::= opts(A) COMMA opt(O). { L = opt_append(A, O); }
opt(O) ::= IDENT(K) ASSIGN expr(E). {
    O = ast_opt(ps->ast, tok_str(ps, K), K.loc, NULL, E, NULL, ast_span(K.loc, E->loc));
}
opt(O) ::= MASS(K) ASSIGN expr(E). {
    O = ast_opt(ps->ast, "mass", K.loc, NULL, E, NULL, ast_span(K.loc, E->loc));
}
opt(O) ::= IDENT(K) ASSIGN GAP(W). {
    O = ast_opt(ps->ast, tok_str(ps, K), K.loc, NULL, NULL, "gap", ast_span(K.loc, W.loc));
}
opt(O) ::= IDENT(K) ASSIGN GAP ref(R). {
    O = ast_opt(ps->ast, tok_str(ps, K), K.loc, R, NULL, "gap", ast_span(K.loc, R->loc));
}
opt(O) ::= IDENT(K) ASSIGN FORCE(W). {
    O = ast_opt(ps->ast, tok_str(ps, K), K.loc, NULL, NULL, "force", ast_span(K.loc, W.loc));
}

/* force [NAME:] on BODY = EXPR */
stmt(S) ::= FORCE(K) ON target(B) ASSIGN expr(E). {
    S = ast_stmt(ps->ast, S_FORCE, K.loc);
    S->a = B;
    S->value = E;
}
stmt(S) ::= FORCE(K) ref(N) COLON ON target(B) ASSIGN expr(E). {
    S = ast_stmt(ps->ast, S_FORCE, K.loc);
    S->label = N;
    S->a = B;
    S->value = E;
}

stmt(S) ::= GRAVITY(K) expr(E). {
    S = ast_stmt(ps->ast, S_GRAVITY, K.loc);
    S->value = E;
}
/* gravity NAME = (gx, gy, gz): a vector in space (bodies in space) */
stmt(S) ::= GRAVITY(K) ref(N) ASSIGN expr(E). {
    S = ast_stmt(ps->ast, S_GRAVITY, K.loc);
    S->label = N;
    S->value = E;
}
stmt(S) ::= GRAVITY(K) expr(E) ALONG expr(D). {
    S = ast_stmt(ps->ast, S_GRAVITY, K.loc);
    S->value = E;
    S->a = D;
}

/* disc NAME: mass = ..., radius = ..., inertia = ...;  body NAME: mass = ..., inertia = ... */
stmt(S) ::= DISC(K) ref(N) COLON opts(O). {
    S = ast_stmt(ps->ast, S_DISC, K.loc);
    S->label = N;
    S->opts = O.head;
}
stmt(S) ::= BODY(K) ref(N) COLON opts(O). {
    S = ast_stmt(ps->ast, S_BODY, K.loc);
    S->label = N;
    S->opts = O.head;
}

/* rigid NAME: mass = ..., inertia = (I1, I2, I3): a body in space */
stmt(S) ::= RIGID(K) ref(N) COLON opts(O). {
    S = ast_stmt(ps->ast, S_RIGID, K.loc);
    S->label = N;
    S->opts = O.head;
}
/* torque on BODY = (t1, t2, t3): a torque in a rigid body's frame */
stmt(S) ::= TORQUE(K) ON target(B) ASSIGN expr(E). {
    S = ast_stmt(ps->ast, S_TORQUE, K.loc);
    S->a = B;
    S->value = E;
}

/* plane NAME: normal = (nx, ny, nz), offset = d | through = (x, y, z): a fixed
 * plane of bodies in space, its normal pointing to the free side */
stmt(S) ::= PLANE(K) ref(N) COLON opts(O). {
    S = ast_stmt(ps->ast, S_PLANE, K.loc);
    S->label = N;
    S->opts = O.head;
}

/* Lagrangian models: coordinate NAME: length | angle;  kinetic NAME = EXPR;
 * potential NAME = EXPR.  The kind is a word checked by sema. */
stmt(S) ::= COORDINATE(K) ref(N) COLON IDENT(W). {
    S = ast_stmt(ps->ast, S_COORDINATE, K.loc);
    S->label = N;
    S->law = tok_str(ps, W);
    S->law_loc = W.loc;
}
stmt(S) ::= KINETIC(K) ref(N) ASSIGN expr(E). {
    S = ast_stmt(ps->ast, S_KINETIC, K.loc);
    S->label = N;
    S->value = E;
}
stmt(S) ::= POTENTIAL(K) ref(N) ASSIGN expr(E). {
    S = ast_stmt(ps->ast, S_POTENTIAL, K.loc);
    S->label = N;
    S->value = E;
}

/* wall [NAME:] DISC, normal = (nx, ny), through = (px, py), LAW(...) */
stmt(S) ::= WALL(K) ref(N) COLON ref(B) COMMA opts(O) COMMA law(L). {
    S = L;
    S->kind = S_WALL;
    S->loc = K.loc;
    S->label = N;
    S->a = B;
    S->law_opts = S->opts;
    S->opts = O.head;
}
stmt(S) ::= WALL(K) ref(B) COMMA opts(O) COMMA law(L). {
    S = L;
    S->kind = S_WALL;
    S->loc = K.loc;
    S->a = B;
    S->law_opts = S->opts;
    S->opts = O.head;
}

/* gap [NAME:] CONDITION, LAW(...) */
stmt(S) ::= GAP(K) ref(N) COLON expr(E) COMMA law(L). {
    S = L;
    S->loc = K.loc;
    S->label = N;
    S->value = E;
}
stmt(S) ::= GAP(K) expr(E) COMMA law(L). {
    S = L;
    S->loc = K.loc;
    S->value = E;
}
/* gap NAME: B.sphere(centre = (a, b, c), radius = r) above PLANE, LAW(...): a
 * sphere of rigid body B against a plane (the member's word is checked by sema) */
stmt(S) ::= GAP(K) ref(N) COLON ref(B) DOT IDENT(F) LPAREN opts(O) RPAREN ABOVE ref(P) COMMA law(L). {
    S = L;
    S->kind = S_SPHERE;
    S->loc = K.loc;
    S->label = N;
    S->a = B;
    S->b = P;
    S->name = tok_str(ps, F);
    S->name_loc = F.loc;
    S->law_opts = S->opts;
    S->opts = O.head;
}
%type law {Stmt *}
/* WORD(options): the law is named by its word, looked up in the compiler's
 * table of laws by sema (laws.c); a new law needs no grammar. */
law(S) ::= IDENT(W) LPAREN law_opts(O) RPAREN. {
    S = ast_stmt(ps->ast, S_GAP, W.loc);
    S->law = tok_str(ps, W);
    S->law_loc = W.loc;
    S->opts = O.head;
}
law_opts(L) ::= . { L = (OptList){NULL, NULL}; }
law_opts(L) ::= opts(O). { L = O; }

/* friction NAME: A -- B, OPTIONS       (slip velocity A.v - B.v)
 * friction NAME: A -- SURFACE(v = EXPR), OPTIONS   (A.v minus the surface's velocity)
 * friction NAME: slip = EXPR, OPTIONS   (any linear combination of body velocities) */
stmt(S) ::= FRICTION(K) ref(N) COLON ref(A) LINK ref(B) opts_tail(O). {
    S = ast_stmt(ps->ast, S_FRICTION, K.loc);
    S->label = N;
    S->a = A;
    S->b = B;
    S->opts = O.head;
}
stmt(S) ::= FRICTION(K) ref(N) COLON ref(A) LINK IDENT(W) LPAREN opts(V) RPAREN opts_tail(O). {
    S = ast_stmt(ps->ast, S_FRICTION, K.loc);
    S->label = N;
    S->a = A;
    S->law = tok_str(ps, W);
    S->law_loc = W.loc;
    S->surface = V.head;
    S->opts = O.head;
}
stmt(S) ::= FRICTION(K) ref(N) COLON opts(O). {
    S = ast_stmt(ps->ast, S_FRICTION, K.loc);
    S->label = N;
    S->opts = O.head;
}

/* init TARGET = EXPR, ... */
stmt(S) ::= INIT(K) inits(L). {
    S = ast_stmt(ps->ast, S_INIT, K.loc);
    S->opts = L.head;
}
inits(L) ::= init(O). { L = opt_list(O); }
inits(L) ::= inits(A) COMMA init(O). { L = opt_append(A, O); }
init(O) ::= expr(T) ASSIGN expr(E). {
    O = ast_opt(ps->ast, NULL, T->loc, T, E, NULL, ast_span(T->loc, E->loc));
}

stmt(S) ::= SIMULATE(K) opts(O). {
    S = ast_stmt(ps->ast, S_SIMULATE, K.loc);
    S->opts = O.head;
}

/* output [every EXPR]: ITEM, ... */
stmt(S) ::= OUTPUT(K) COLON items(I). {
    S = ast_stmt(ps->ast, S_OUTPUT, K.loc);
    S->items = I;
}
stmt(S) ::= OUTPUT(K) EVERY expr(E) COLON items(I). {
    S = ast_stmt(ps->ast, S_OUTPUT, K.loc);
    S->value = E;
    S->items = I;
}
items(L) ::= item(I). { L = (NodeList){0}; ast_list_push(ps->ast, &L, I); }
items(L) ::= items(A) COMMA item(I). { L = A; ast_list_push(ps->ast, &L, I); }
/* an output item: a quantity or expression, or NAME = EXPR (a named column) */
item(I) ::= expr(E). { I = E; }
item(I) ::= expr(T) ASSIGN expr(E). { I = ast_binary(ps->ast, N_LABEL, 0, T, E); }

/* for VAR in A..B: STATEMENT */
stmt(S) ::= FOR(K) IDENT(V) IN expr(A) DOTDOT expr(B) COLON stmt(T). {
    S = ast_stmt(ps->ast, S_FOR, K.loc);
    S->name = tok_str(ps, V);
    S->name_loc = V.loc;
    S->a = A;
    S->b = B;
    S->body = T;
}

/* What a spring, damper or force acts on: a body, or one coordinate of a
 * planar body (D.x, D.y, D.phi). */
%type target {Node *}
target(R) ::= ref(B). { R = B; }
target(R) ::= ref(B) DOT IDENT(F). { R = ast_member(ps->ast, B, tok_str(ps, F), F.loc); }

/* NAME, NAME[INDEX], NAME[LO..HI] */
ref(R) ::= IDENT(N). { R = ast_name(ps->ast, N.loc, tok_str(ps, N)); }
ref(R) ::= IDENT(N) LBRACKET expr(I) RBRACKET(E). {
    R = ast_index(ps->ast, N.loc, tok_str(ps, N), I, E.loc);
}
ref(R) ::= IDENT(N) LBRACKET expr(A) DOTDOT expr(B) RBRACKET(E). {
    R = ast_range(ps->ast, N.loc, tok_str(ps, N), A, B, E.loc);
}

expr(E) ::= primary(P). { E = P; }
primary(E) ::= NUMBER(N). { E = ast_num(ps->ast, N.loc, N.num, NULL, N.loc); }
primary(E) ::= NUMBER(N) UNIT(U). {
    E = ast_num(ps->ast, N.loc, N.num, tok_str(ps, U), U.loc);
}
primary(E) ::= ref(R). { E = R; }
primary(E) ::= ref(R) DOT IDENT(F). { E = ast_member(ps->ast, R, tok_str(ps, F), F.loc); }
primary(E) ::= ref(R) DOT FORCE(F). { E = ast_member(ps->ast, R, "force", F.loc); }
primary(E) ::= ref(R) DOT GAP(F). { E = ast_member(ps->ast, R, "gap", F.loc); }
primary(E) ::= IDENT(N) LPAREN args(A) RPAREN(C). {
    E = ast_call(ps->ast, N.loc, tok_str(ps, N), A, C.loc);
}
primary(E) ::= LPAREN(O) expr(A) RPAREN(C). { E = ast_paren(ps->ast, A, O.loc, C.loc); }
primary(E) ::= LPAREN(O) expr(A) COMMA expr(B) RPAREN(C). { E = ast_tuple(ps->ast, A, B, O.loc, C.loc); }
primary(E) ::= LPAREN(O) expr(A) COMMA expr(B) COMMA expr(D) RPAREN(C). {
    E = ast_tuple3(ps->ast, A, B, D, O.loc, C.loc);
}
/* B.point(a, b, c).x: a field of a point fixed in a rigid body (the call's
 * base is the body) */
primary(E) ::= ref(R) DOT IDENT(F) LPAREN args(A) RPAREN(C) DOT IDENT(G). {
    Node *call = ast_call(ps->ast, F.loc, tok_str(ps, F), A, C.loc);
    call->a = R;
    call->loc = ast_span(R->loc, call->loc);
    E = ast_member(ps->ast, call, tok_str(ps, G), G.loc);
}
args(L) ::= expr(E). { L = (NodeList){0}; ast_list_push(ps->ast, &L, E); }
args(L) ::= args(A) COMMA expr(E). { L = A; ast_list_push(ps->ast, &L, E); }

expr(E) ::= expr(A) PLUS expr(B). { E = ast_binary(ps->ast, N_BIN, '+', A, B); }
expr(E) ::= expr(A) MINUS expr(B). { E = ast_binary(ps->ast, N_BIN, '-', A, B); }
expr(E) ::= expr(A) STAR expr(B). { E = ast_binary(ps->ast, N_BIN, '*', A, B); }
expr(E) ::= expr(A) SLASH expr(B). { E = ast_binary(ps->ast, N_BIN, '/', A, B); }
expr(E) ::= expr(A) CARET expr(B). { E = ast_binary(ps->ast, N_BIN, '^', A, B); }
expr(E) ::= MINUS(O) expr(A). [UMINUS] { E = ast_unary(ps->ast, N_NEG, O.loc, A); }
expr(E) ::= expr(A) LT expr(B). { E = ast_binary(ps->ast, N_CMP, CMP_LT, A, B); }
expr(E) ::= expr(A) LE expr(B). { E = ast_binary(ps->ast, N_CMP, CMP_LE, A, B); }
expr(E) ::= expr(A) GT expr(B). { E = ast_binary(ps->ast, N_CMP, CMP_GT, A, B); }
expr(E) ::= expr(A) GE expr(B). { E = ast_binary(ps->ast, N_CMP, CMP_GE, A, B); }
expr(E) ::= expr(A) EQ expr(B). { E = ast_binary(ps->ast, N_CMP, CMP_EQ, A, B); }
expr(E) ::= expr(A) NE expr(B). { E = ast_binary(ps->ast, N_CMP, CMP_NE, A, B); }
expr(E) ::= expr(A) AND expr(B). { E = ast_binary(ps->ast, N_AND, 0, A, B); }
expr(E) ::= expr(A) OR expr(B). { E = ast_binary(ps->ast, N_OR, 0, A, B); }
expr(E) ::= NOT(O) expr(A). { E = ast_unary(ps->ast, N_NOT, O.loc, A); }
expr(E) ::= IF(K) expr(C) THEN expr(A) ELSE expr(B). { E = ast_if(ps->ast, K.loc, C, A, B); }
