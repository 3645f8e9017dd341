/*
** toy_law.h: the toy contact law of toy_law.c, its number and its counts.
*/
#ifndef TOY_LAW_H
#define TOY_LAW_H

#define TOY_LAW 2             /* the law number its gaps name (nsm_gap_info.law) */
#define TOY_E 0.5             /* its restitution, whatever the model's e */

extern long toy_events;       /* events logged at toy gaps */
extern long toy_transitions;  /* separations the toy law carried out */

int toy_law_register(void);

#endif
