/*
** toy_law.h: the toy contact law of toy_law.c, its number and its counts.
*/
#ifndef TOY_LAW_H
#define TOY_LAW_H

#define TOY_LAW 2             /* the law number its gaps name (nsm_gap_info.law) */
#define TOY_E 0.5             /* its restitution at a vanishing approach, whatever the model's e */

extern long toy_events;       /* events logged at toy gaps */
extern long toy_transitions;  /* separations the toy law carried out */
extern double toy_v0;         /* its speed scale: e(v) = TOY_E / (1 + |v| / toy_v0) */

int toy_law_register(void);

#endif
