/* sim_main.c: the main of a test simulator, as nsmc writes it for a model:
 * hand the model table to the runtime's command-line driver. */
#include "nsm/cli.h"

extern const nsm_model NSM_TEST_MODEL;

int main(int argc, char **argv)
{
    return nsm_main(&NSM_TEST_MODEL, argc, argv);
}
