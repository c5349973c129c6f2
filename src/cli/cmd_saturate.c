/* `routesim saturate KEY=VALUE...`: bisection on the offered load (docs/cli.md). */
#include "cli/cli.h"

int cli_cmd_saturate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct rs_err err;
    rs_err_clear(&err);
    rs_err_set(&err, RS_EUNSUPPORTED, "saturate: not yet");
    return cli_fail(&err);
}
