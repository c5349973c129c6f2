/* The table of every metric (name, type, unit, producers, meaning, field of the typed
 * result), name lookup with typo suggestions, and the one conversion of a typed result or of
 * a single metric into a record. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "routesim/assert.h"
#include "routesim/metrics.h"
#include "routesim/options.h"

#define F(member) offsetof(struct rs_result, member)
#define NO RS_METRIC_NO_FIELD
#define I RS_METRIC_INT
#define D RS_METRIC_DOUBLE
#define S RS_METRIC_STRING

#define ENGINES "store_forward, flit engines, circuit"
#define FLIT "flit engines"

const struct rs_metric_def rs_metric_defs[RS_M__COUNT] = {
    [RS_M_MAKESPAN] = {"makespan", I, "steps", ENGINES ", cms_butterfly, wave, ms_chain, ms_mesh, ms_torus, bay_bilardi (batch runs)",
                       "step (circuit: network cycle; bay_bilardi: bit step) of the last delivery or drop; 0 when "
                       "every path is empty",
                       F(makespan)},
    [RS_M_MESSAGES] = {"messages", I, "messages", ENGINES ", cms_butterfly, wave, ms_chain, ms_mesh, ms_torus, bay_bilardi, analyze",
                       "messages of the static message set", F(messages)},
    [RS_M_DELIVERED] = {"delivered", I, "messages", ENGINES ", cms_butterfly, wave, ms_chain, ms_mesh, ms_torus, bay_bilardi, open loop",
                        "messages (open loop: packets) delivered", F(delivered)},
    [RS_M_DROPPED] = {"dropped", I, "messages", ENGINES ", ms_chain, open loop",
                      "messages (open loop: packets) dropped or discarded", F(dropped)},
    [RS_M_DELIVERED_FRACTION] = {"delivered_fraction", D, "1",
                                 "store_forward, circuit (batch runs)",
                                 "delivered / messages (1 when there are none)",
                                 F(delivered_fraction)},
    [RS_M_LATENCY_MEAN] = {"latency_mean", D, "steps", ENGINES ", cms_butterfly, wave, ms_chain, ms_mesh, ms_torus, bay_bilardi, open loop",
                           "mean latency of the delivered messages (finish minus release; open "
                           "loop: measured packets, delivery minus generation); NaN (JSON null) "
                           "when none was delivered, the run deadlocked or saturated",
                           F(latency_mean)},
    [RS_M_LATENCY_P99] = {"latency_p99", D, "steps", ENGINES ", cms_butterfly, wave, ms_chain, ms_mesh, ms_torus, bay_bilardi, open loop",
                          "nearest-rank 99th percentile of the latency: the smallest latency by "
                          "which at least 99% of the delivered had arrived; NaN as latency_mean",
                          F(latency_p99)},
    [RS_M_LATENCY_MAX] = {"latency_max", D, "steps", ENGINES ", cms_butterfly, wave, ms_chain, ms_mesh, ms_torus, bay_bilardi, open loop",
                          "largest latency of a delivered message; NaN as latency_mean",
                          F(latency_max)},
    [RS_M_STEPS] = {"steps", I, "steps", "store_forward, wave, " FLIT ", ms_chain, ms_mesh, ms_torus",
                    "steps simulated (makespan unless deadlocked; open loop: the last step)",
                    F(steps)},
    [RS_M_DEADLOCK] = {"deadlock", I, "0/1", "store_forward, " FLIT ", ms_chain",
                       "1 when the run stopped in a deadlock (messages left, none can move)",
                       F(deadlock)},
    [RS_M_MAX_QUEUE] = {"max_queue", I, "packets", "store_forward, wave",
                        "largest occupancy an in-network queue reached (sources excluded)",
                        F(max_queue)},
    [RS_M_HOPS] = {"hops", I, "packet-hops", "store_forward, wave",
                   "channel crossings of all packets",
                   F(hops)},
    [RS_M_RANK_LEVELS_USED] = {"rank_levels_used", I, "ranks", "store_forward",
                               "ranks drawn from (protocol=rank; 0 otherwise)",
                               F(rank_levels_used)},
    [RS_M_TOP_RANK_MESSAGES] = {"top_rank_messages", I, "messages", "store_forward (batch runs)",
                                "messages of the highest rank (protocol=rank)",
                                F(top_rank_messages)},
    [RS_M_TOP_RANK_DELIVERED] = {"top_rank_delivered", I, "messages", "store_forward (batch runs)",
                                 "delivered messages of the highest rank (protocol=rank)",
                                 F(top_rank_delivered)},
    [RS_M_FLIT_HOPS] = {"flit_hops", I, "flit-hops", FLIT ", cms_butterfly, ms_chain, ms_mesh, ms_torus",
                        "channel crossings of all flits", F(flit_hops)},
    [RS_M_BLOCKED_HEADER_STEPS] = {"blocked_header_steps", I, "steps", FLIT,
                                   "(message, step) pairs in which a message's header wanted "
                                   "to move and could not",
                                   F(blocked_header_steps)},
    [RS_M_MAX_BUFFER] = {"max_buffer", I, "flits", FLIT ", cms_butterfly",
                         "most flits one virtual-channel buffer held", F(max_buffer)},
    [RS_M_CYCLES] = {"cycles", I, "cycles", "circuit",
                     "network cycles run (batch: until every message is routed or dropped)",
                     F(cycles)},
    [RS_M_DELIVERED_FIRST_CYCLE] = {"delivered_first_cycle", I, "messages", "circuit (batch runs)",
                                    "messages routed in the first network cycle",
                                    F(delivered_first_cycle)},
    [RS_M_CONFLICTS] = {"conflicts", I, "requests", "circuit",
                        "circuit attempts refused, summed over cycles (attempts minus delivered)",
                        F(conflicts)},
    [RS_M_MAX_CIRCUITS] = {"max_circuits", I, "circuits", "circuit",
                           "most circuits one channel carried in a cycle", F(max_circuits)},
    [RS_M_LOCKS] = {"locks", I, "channel locks", "circuit",
                    "channels locked, summed over cycles, including those of attempts that failed",
                    F(locks)},
    [RS_M_RANKS_USED] = {"ranks_used", I, "ranks", "circuit",
                         "ranks drawn from (down=rank; 0 otherwise)", F(ranks_used)},
    [RS_M_DELIVERED_PER_CYCLE] = {"delivered_per_cycle", S, "messages", "circuit (batch runs)",
                                  "messages routed in each cycle, ';'-separated",
                                  F(delivered_per_cycle)},
    [RS_M_OFFERED] = {"offered", D, "flits/terminal/step", "open loop (every engine)",
                      "flits generated in the measurement window per terminal and step",
                      F(offered)},
    [RS_M_ACCEPTED] = {"accepted", D, "flits/terminal/step", "open loop (every engine)",
                       "flits delivered in the measurement window per terminal and step",
                       F(accepted)},
    [RS_M_MEASURED_PACKETS] = {"measured_packets", I, "packets", "open loop (every engine)",
                               "packets generated in the measurement window", F(measured_packets)},
    [RS_M_MEASURED_DELIVERED] = {"measured_delivered", I, "packets", "open loop (every engine)",
                                 "measured packets delivered by the end of the run",
                                 F(measured_delivered)},
    [RS_M_SATURATED] = {"saturated", I, "0/1", "open loop (every engine)",
                        "1 when the network did not keep up with the offered load "
                        "(docs/openloop.md)",
                        F(saturated)},
    [RS_M_ENDED_BY] = {"ended_by", S, "text", "open loop (every engine)",
                       "what ended the run: window or drain_limit (sim_type=fixed); converged, "
                       "max_samples, latency_thres or drain_limit (BookSim's run control); "
                       "deadlock (docs/openloop.md)",
                       F(ended_by)},
    [RS_M_SATURATION_THROUGHPUT] = {"saturation_throughput", D, "flits/terminal/step",
                                    "saturate",
                                    "mean accepted throughput at the highest load the "
                                    "bisection of `routesim saturate` judged below saturation "
                                    "(docs/cli.md)",
                                    NO},
    [RS_M_SATURATION_THROUGHPUT_CI] = {"saturation_throughput_ci", D, "flits/terminal/step",
                                       "saturate",
                                       "95% half-width of saturation_throughput over the "
                                       "replications", NO},
    [RS_M_SATURATION_RATE_LO] = {"saturation_rate_lo", D, "injection_rate", "saturate",
                                 "highest injection_rate judged below saturation", NO},
    [RS_M_SATURATION_RATE_HI] = {"saturation_rate_hi", D, "injection_rate", "saturate",
                                 "lowest injection_rate judged above saturation or "
                                 "inconclusive (saturate_hi when none was)", NO},
    [RS_M_PER_INPUT] = {"per_input", I, "messages", "run (traffic=paths)",
                        "most messages one terminal sends", NO},
    [RS_M_CONGESTION] = {"congestion", I, "messages", "run (batch runs), analyze",
                         "most paths crossing one channel", NO},
    [RS_M_DILATION] = {"dilation", I, "channels", "run (batch runs), analyze", "longest path", NO},
    [RS_M_TOTAL_HOPS] = {"total_hops", I, "channels", "analyze", "sum of the path lengths", NO},
    [RS_M_LEVEL_MAX] = {"level<l>_max", I, "messages", "analyze (leveled networks)",
                        "most paths crossing one channel of level l", NO},
    [RS_M_LEVEL_MSGS] = {"level<l>_msgs", I, "messages", "analyze (leveled networks)",
                         "path hops on the channels of level l", NO},
    [RS_M_PREDICTED_CYCLES] = {"predicted_cycles", D, "cycles", "predict=lcan",
                               "cycles the LCAN recurrence predicts", NO},
    [RS_M_PREDICTED_FIRST_CYCLE] = {"predicted_first_cycle", D, "messages", "predict=lcan",
                                    "messages the recurrence routes in the first cycle", NO},
    [RS_M_PREDICTED_PER_CYCLE] = {"predicted_per_cycle", S, "messages", "predict=lcan",
                                  "predicted successes of each cycle, ';'-separated", NO},
    [RS_M_CHANNEL_LOAD] = {"channel_load", D, "flits/channel/step per flit/terminal/step",
                           "predict=channel_load",
                           "largest expected load of a network channel per unit injection "
                           "rate, gamma_max (min_adaptive: a lower bound for any minimal "
                           "routing; docs/openloop.md)", NO},
    [RS_M_THROUGHPUT_BOUND] = {"throughput_bound", D, "flits/terminal/step",
                               "predict=channel_load",
                               "channel-load bound on the throughput, (senders/N) / "
                               "max(gamma_max, terminal load), in accepted's unit", NO},
    [RS_M_HOPS_MEAN] = {"hops_mean", D, "channels", "predict=channel_load",
                        "expected network channels per packet of the traffic", NO},
    [RS_M_LOCAL_FRACTION] = {"local_fraction", D, "packets/packet", "predict=channel_load",
                             "fraction of packets whose path is empty (sent to their own "
                             "terminal)", NO},
    [RS_M_BOUND] = {"bound", D, "steps", "colour_refine, cms_butterfly, wave",
                    "the algorithm's bound on the makespan without its constant (colour_refine: "
                    "(L+D)C(D log D)^(1/B)/B; cms_butterfly: Theorem 3.1.1's expression; wave: "
                    "k + log N, 004 Theorem 4.3)",
                    NO},
    [RS_M_MEASURED_OVER_BOUND] = {"measured_over_bound", D, "1", "cms_butterfly, wave",
                                  "makespan / bound", NO},
    [RS_M_BOUND_CYCLES] = {"bound_cycles", I, "cycles", "offline",
                           "cycles the off-line realization needs (002 §4)", NO},
    [RS_M_CROSSED_SWITCHES] = {"crossed_switches", I, "switches", "offline",
                               "topology=benes: 2x2 switches the looping algorithm sets "
                               "crossed, of 2n N/2",
                               NO},
    [RS_M_REFINE_CASE] = {"refine_case", I, "case", "colour_refine",
                          "case of Lemma 2.1.5: 0 = C <= B, 1, 2 = 2a, 3 = case 2", NO},
    [RS_M_REFINE_STEPS] = {"refine_steps", I, "steps", "colour_refine",
                           "refinement steps of the schedule", NO},
    [RS_M_RESAMPLES] = {"resamples", I, "resamples", "colour_refine",
                        "Moser-Tardos resamplings over all refinement steps", NO},
    [RS_M_KAPPA] = {"kappa", D, "1", "colour_refine",
                    "kappa of the refinement (docs/colour-refine.md)", NO},
    [RS_M_CLASSES] = {"classes", I, "classes", "colour_refine", "colour classes of the schedule",
                      NO},
    [RS_M_PERIOD] = {"period", I, "steps", "colour_refine", "steps between two classes", NO},
    [RS_M_SCHEDULE_LENGTH] = {"schedule_length", I, "steps", "colour_refine", "classes x period",
                              NO},
    [RS_M_LATE_MESSAGES] = {"late_messages", I, "messages", "colour_refine",
                            "worms not delivered exactly D + L - 1 steps after release", NO},
    [RS_M_SLOT_OVERRUNS] = {"slot_overruns", I, "messages", "colour_refine",
                            "messages not delivered by the end of their class's slot", NO},
    [RS_M_LENGTH_OVER_BOUND] = {"length_over_bound", D, "1", "colour_refine",
                                "schedule_length / bound", NO},
    [RS_M_MAKESPAN_OVER_BOUND] = {"makespan_over_bound", D, "1", "colour_refine",
                                  "makespan / bound", NO},
    [RS_M_BOUND_THM] = {"bound_thm", D, "steps", "colour_refine",
                        "the bound by the cases of Theorem 2.1.6", NO},
    [RS_M_LENGTH_OVER_BOUND_THM] = {"length_over_bound_thm", D, "1", "colour_refine",
                                    "schedule_length / bound_thm", NO},
    [RS_M_ROUNDS] = {"rounds", I, "rounds", "cms_butterfly", "rounds run", NO},
    [RS_M_ROUNDS_PAPER] = {"rounds_paper", I, "rounds", "cms_butterfly",
                           "the paper's 2 log log(N q_eff) + 1", NO},
    [RS_M_COLOURS] = {"colours", I, "colours", "cms_butterfly",
                      "Delta: colours (subrounds) of a round", NO},
    [RS_M_Q_EFF] = {"q_eff", I, "copies", "cms_butterfly",
                    "the q of Delta (q ceil(log N / q) when padded)", NO},
    [RS_M_SUBROUNDS] = {"subrounds", I, "subrounds", "cms_butterfly", "non-empty subrounds run",
                        NO},
    [RS_M_COPIES_SENT] = {"copies_sent", I, "copies", "cms_butterfly",
                          "copies routed in all rounds", NO},
    [RS_M_COPIES_DELIVERED] = {"copies_delivered", I, "copies", "cms_butterfly", "copies delivered",
                               NO},
    [RS_M_COPIES_DISCARDED] = {"copies_discarded", I, "copies", "cms_butterfly",
                               "copies discarded (at the inputs or delayed)", NO},
    [RS_M_COPIES_DISCARDED_AT_INPUT] = {"copies_discarded_at_input", I, "copies", "cms_butterfly",
                                        "copies discarded at the inputs", NO},
    [RS_M_DUPLICATES] = {"duplicates", I, "copies", "cms_butterfly",
                         "copies delivered for a message that already had one", NO},
    [RS_M_MAX_INPUT_COPIES] = {"max_input_copies", I, "copies", "cms_butterfly",
                               "most copies of one round at one input", NO},
    [RS_M_MAX_OUTPUT_COPIES] = {"max_output_copies", I, "copies", "cms_butterfly",
                                "most copies of one round for one output", NO},
    [RS_M_DELIVERED_PER_ROUND] = {"delivered_per_round", S, "messages", "cms_butterfly",
                                  "messages first delivered in each round, ';'-separated", NO},
    [RS_M_STEPS_PER_ROUND] = {"steps_per_round", S, "steps", "cms_butterfly",
                              "flit steps of each round, ';'-separated", NO},
    [RS_M_LOAD_FACTOR] = {"load_factor", D, "messages/wire", "run (batch runs), analyze (fat-trees)",
                          "lambda(M): most messages crossing one channel per wire of it (000 §2)",
                          NO},
    [RS_M_REFERENCE_LOAD_FACTOR] = {"reference_load_factor", D, "messages/wire",
                                    "run (batch runs), analyze (fat-trees)",
                                    "eta(M): lambda with the reference weights 2^ceil(h/2) "
                                    "(000 §2)",
                                    NO},
    [RS_M_DEGREE] = {"degree", I, "messages", "run (batch runs), analyze (fat-trees)",
                     "d(M): most messages one terminal sends or receives (000 §2)", NO},
    [RS_M_CHANNEL_LOAD_FACTOR] = {"channel<l>_load_factor", D, "messages/wire",
                                  "analyze (fat-trees)",
                                  "largest lambda(M, c) over the channels of tree level l", NO},
    [RS_M_PEAK_MSGS] = {"peak<l>_msgs", I, "messages", "analyze (fat-trees)",
                        "messages whose peak (LCA) is at tree level l", NO},
    /* algorithm=wave (004 §4) */
    [RS_M_MAX_LAG] = {"max_lag", I, "steps", "wave",
                      "largest lag t - l of a packet at a switch: makespan - log N", NO},
    [RS_M_MAX_QUEUE0] = {"max_queue0", I, "items", "wave",
                         "largest occupancy (packets and tokens) any 0-queue reached", NO},
    [RS_M_MAX_QUEUE1] = {"max_queue1", I, "items", "wave",
                         "largest occupancy (packets and tokens) any 1-queue reached", NO},
    [RS_M_TOKENS_SENT] = {"tokens_sent", I, "token-hops", "wave",
                          "edge crossings of all tokens", NO},
    [RS_M_BOUND_HARD] = {"bound_hard", I, "steps", "run (traffic=hard_permutation)",
                         "004 Theorem 3.1's bound 2^d (r - (q+2)(d+1)) for the r used", NO},
    [RS_M_BOUND_HARD_ASYMPTOTIC] = {"bound_hard_asymptotic", D, "steps",
                                    "run (traffic=hard_permutation)",
                                    "the theorem's N / (4 (q+2) (log2 N + 1))", NO},
    [RS_M_MAKESPAN_OVER_BOUND_HARD] = {"makespan_over_bound_hard", D, "1",
                                       "run (traffic=hard_permutation)",
                                       "makespan / bound_hard", NO},
    [RS_M_HARD_R] = {"hard_r", I, "packets", "run (traffic=hard_permutation)",
                     "r: packets forced through each input of the busy sub-butterfly", NO},
    [RS_M_HARD_DEPTH] = {"hard_depth", I, "levels", "run (traffic=hard_permutation)",
                         "d = log2 N - 2 log2 r, the busy sub-butterfly's depth", NO},
    [RS_M_MS_DISCIPLINE] = {"ms_discipline", S, "-", "ms_chain",
                            "line discipline run: fifo (Route_on_a_Chain, Lemma 6), "
                            "farthest_first (Theorem 3) or saf_delayed (Lemma 7)", NO},
    [RS_M_MS_M] = {"ms_m", I, "packets", "ms_chain",
                   "m of Theorems 2 and 3: packets that move (destination not their source)", NO},
    [RS_M_MS_MAX_QUEUE] = {"ms_max_queue", I, "packets", "ms_chain, ms_mesh, ms_torus",
                           "most packets at one processor with flits still to cross one of its "
                           "channels (003 Lemma 4's queue; sources included)", NO},
    [RS_M_BOUND_THM1] = {"bound_thm1", D, "steps", "ms_chain",
                         "003 Theorem 1, n(k+1)/2 + k (a permutation on a chain under fifo; "
                         "else NaN)", NO},
    [RS_M_MAKESPAN_OVER_THM1] = {"makespan_over_thm1", D, "1", "ms_chain",
                                 "makespan / bound_thm1", NO},
    [RS_M_BOUND_THM23] = {"bound_thm23", D, "steps", "ms_chain",
                          "003 Theorems 2 and 3, (k-1)m + n (many-to-one under fifo or "
                          "one-to-many under farthest_first on a chain; else NaN)", NO},
    [RS_M_MAKESPAN_OVER_THM23] = {"makespan_over_thm23", D, "1", "ms_chain",
                                  "makespan / bound_thm23", NO},
    [RS_M_BOUND_LEMMA6] = {"bound_lemma6", D, "steps", "ms_chain",
                           "003 Lemma 6, kn/4 (many-to-one on a ring from non-adjacent "
                           "sources under fifo; else NaN)", NO},
    [RS_M_MAKESPAN_OVER_LEMMA6] = {"makespan_over_lemma6", D, "1", "ms_chain",
                                   "makespan / bound_lemma6", NO},
    [RS_M_BOUND_LEMMA7] = {"bound_lemma7", D, "steps", "ms_chain",
                           "003 Lemma 7, kn/2 (one-to-many on a ring under saf_delayed; else "
                           "NaN)", NO},
    [RS_M_MAKESPAN_OVER_LEMMA7] = {"makespan_over_lemma7", D, "1", "ms_chain",
                                   "makespan / bound_lemma7", NO},
    [RS_M_MS_F] = {"ms_f", I, "1", "ms_mesh, ms_torus",
        "f(n) used: the largest divisor of n up to round(log2 n) (f=log) or round(sqrt n) (f=sqrt)", NO},
    [RS_M_MS_SIDE] = {"ms_side", I, "processors", "ms_mesh, ms_torus",
        "side n/f(n) of the sorting submeshes", NO},
    [RS_M_MS_U] = {"ms_u", I, "snakes", "ms_mesh, ms_torus",
        "u of the colouring (003 §3.1): most white snakes in one row, before the sort", NO},
    [RS_M_MS_V] = {"ms_v", I, "snakes", "ms_mesh, ms_torus",
        "v: most black snakes in one column, before the sort", NO},
    [RS_M_MS_W] = {"ms_w", I, "snakes", "ms_mesh, ms_torus",
        "w: most white snakes destined for one column", NO},
    [RS_M_MS_X] = {"ms_x", I, "snakes", "ms_mesh, ms_torus",
        "x: most black snakes destined for one row", NO},
    [RS_M_MS_U_SORTED] = {"ms_u_sorted", I, "snakes", "ms_mesh, ms_torus",
        "u after the sort of step 2 (Lemma 3: at most u + f(n))", NO},
    [RS_M_MS_V_SORTED] = {"ms_v_sorted", I, "snakes", "ms_mesh, ms_torus",
        "v after the sort of step 2 (Lemma 3: at most v + f(n))", NO},
    [RS_M_MS_SORT_EXCHANGES] = {"ms_sort_exchanges", I, "exchange steps", "ms_mesh, ms_torus",
        "compare-exchange steps of the submesh sort (shearsort (2 ceil(log2 m) + 2) m on m x m, or Schnorr-Shamir: rs_ms_ss_steps)", NO},
    [RS_M_STEPS_SORT] = {"steps_sort", I, "steps", "ms_mesh, ms_torus",
        "flit steps of step 2: ms_sort_exchanges times the length of a sorted snake", NO},
    [RS_M_STEPS_PHASE3] = {"steps_phase3", I, "steps", "ms_mesh, ms_torus",
        "flit steps of step 3 (until its last tail arrives)", NO},
    [RS_M_STEPS_PHASE4] = {"steps_phase4", I, "steps", "ms_mesh, ms_torus",
        "flit steps of step 4 (until its last tail arrives)", NO},
    [RS_M_STEPS_ROUTING] = {"steps_routing", I, "steps", "ms_mesh, ms_torus",
        "steps_phase3 + steps_phase4: the routing the main terms of Theorems 4-8 bound", NO},
    [RS_M_MS_QUEUE_PHASE3] = {"ms_queue_phase3", I, "snakes", "ms_mesh, ms_torus",
        "largest number of snakes waiting for one channel in step 3", NO},
    [RS_M_MS_QUEUE_PHASE4] = {"ms_queue_phase4", I, "snakes", "ms_mesh, ms_torus",
        "largest number of snakes waiting for one channel in step 4", NO},
    [RS_M_MS_BLOCKED_STARTS] = {"ms_blocked_starts", I, "(snake, step) pairs", "ms_mesh, ms_torus",
        "(snake, step) pairs in which an eligible snake waited (Lemma 7's schedule promises 0 on the torus)", NO},
    [RS_M_BOUND_MS_MAIN] = {"bound_ms_main", D, "steps", "ms_mesh, ms_torus",
        "the main term of 003's theorem for the run: 3nk/2 (A, B), nk (random; two snakes), 3nk/4 (torus A), nk/2 (torus random; four snakes)", NO},
    [RS_M_MS_ROUTING_OVER_MAIN] = {"ms_routing_over_main", D, "1", "ms_mesh, ms_torus",
        "(steps_phase3 + steps_phase4) / bound_ms_main", NO},
    [RS_M_MS_MAKESPAN_OVER_MAIN] = {"ms_makespan_over_main", D, "1", "ms_mesh, ms_torus",
        "makespan / bound_ms_main", NO},
    [RS_M_MS_OTERM_MAIN] = {"ms_oterm_main", D, "1", "ms_mesh, ms_torus",
        "(makespan - bound_ms_main) / (kn/f(n)): the measured constant of the O(kn/f(n)) term, sort included", NO},
    [RS_M_MS_ROUTING_EXCESS_OVER_N] = {"ms_routing_excess_over_n", D, "1", "ms_mesh, ms_torus",
        "(steps_phase3 + steps_phase4 - bound_ms_main) / n: the routing's o(n) remainder in units of n", NO},
    [RS_M_BOUND_MS_THM4] = {"bound_ms_thm4", D, "steps", "ms_mesh, ms_torus",
        "Theorem 4 without O(kn/f(n)) and t_colour: (k-1)[min(max(u+f, v+f), n) + max(w, x)] + 2n with the measured colouring (k: snake length; mesh only)", NO},
    [RS_M_MS_ROUTING_OVER_THM4] = {"ms_routing_over_thm4", D, "1", "ms_mesh, ms_torus",
        "(steps_phase3 + steps_phase4) / bound_ms_thm4", NO},
    [RS_M_MS_OTERM_THM4] = {"ms_oterm_thm4", D, "1", "ms_mesh, ms_torus",
        "(makespan - bound_ms_thm4) / (kn/f(n))", NO},
    [RS_M_BOUND_MS_QUEUE] = {"bound_ms_queue", D, "snakes", "ms_mesh, ms_torus",
        "the theorem's queue bound in snakes: 2f (A), 3f/2 (B), Lemma 4 (random), f packets of 2 snakes, f/2 packets of 4 snakes", NO},
    [RS_M_MS_QUEUE_OVER_BOUND] = {"ms_queue_over_bound", D, "1", "ms_mesh, ms_torus",
        "ms_max_queue / bound_ms_queue", NO},
    [RS_M_BOUND_MS_LEMMA4] = {"bound_ms_lemma4", D, "snakes", "ms_mesh, ms_torus",
        "Lemma 4: (1 + max(w, x)/n) f(n) with the measured w, x", NO},
    [RS_M_MS_QUEUE_OVER_LEMMA4] = {"ms_queue_over_lemma4", D, "1", "ms_mesh, ms_torus",
        "ms_max_queue / bound_ms_lemma4", NO},
    [RS_M_BIT_STEPS] = {"bit_steps", I, "bit steps", "bay_bilardi, flexible_sort, sorting_fat_tree",
        "total time in bit steps: bay_bilardi, set-up and all log N stages (000 §3.3; docs/bay-bilardi.md); flexible_sort, load, control select, sort and permuting steps, unload (docs/flexible-sorter.md); sorting_fat_tree, the 8 steps of 000 §4.3 (docs/papers/bay-bilardi.md)", NO},
    [RS_M_STAGE_BIT_STEPS] = {"stage_bit_steps", S, "bit steps", "bay_bilardi",
        "bit steps of stage 0, 1, ..., log N - 1, ';'-separated", NO},
    [RS_M_STAGE_LAMBDA_T] = {"stage_lambda_t", S, "batches", "bay_bilardi",
        "largest lambda_T (batches of a subtree) of each stage, ';'-separated", NO},
    [RS_M_BATCH_ROUNDS] = {"batch_rounds", I, "batches", "bay_bilardi",
        "sum over the stages of the largest lambda_T: the batch rounds run", NO},
    [RS_M_COMPRESSION_CONFLICTS] = {"compression_conflicts", I, "messages", "bay_bilardi",
        "messages a greedy compression of a batch made inactive (Corollary 1: 0)", NO},
    [RS_M_SIDETRACKS] = {"sidetracks", I, "messages", "bay_bilardi",
        "times an active message was sidetracked in an expansion (rule (b)): the conflicts of lambda > 1", NO},
    [RS_M_LE1_BATCHES] = {"le1_batches", I, "batches", "bay_bilardi",
        "batch expansions whose load factor over the channels below their turning node is <= 1", NO},
    [RS_M_LE1_CONFLICTS] = {"le1_conflicts", I, "messages", "bay_bilardi",
        "sidetracks in those expansions (Corollary 1: 0)", NO},
    [RS_M_LAMBDA_T_MAX] = {"lambda_t_max", I, "batches", "bay_bilardi",
        "largest lambda_T = ceil(ascending load factor of M_T) over every stage and subtree", NO},
    [RS_M_BOUND_LAMBDA_T] = {"bound_lambda_t", I, "batches", "bay_bilardi",
        "Lemma 6's bound 2 ceil(lambda(M))", NO},
    [RS_M_LAMBDA_T_OVER_BOUND] = {"lambda_t_over_bound", D, "1", "bay_bilardi",
        "lambda_t_max / bound_lambda_t (Lemma 6: <= 1)", NO},
    [RS_M_LEMMA6_VIOLATION] = {"lemma6_violation", S, "text", "bay_bilardi",
        "'none', or the stage and subtree where lambda_T exceeded 2 ceil(lambda(M))", NO},
    [RS_M_SIDETRACK_MAX] = {"sidetrack_max", I, "messages", "bay_bilardi",
        "most sidetracked messages stored at one processor between batch routings", NO},
    [RS_M_BOUND_SIDETRACK] = {"bound_sidetrack", I, "messages", "bay_bilardi",
        "Lemma 7's bound (d+1) log N + d", NO},
    [RS_M_SIDETRACK_OVER_BOUND] = {"sidetrack_over_bound", D, "1", "bay_bilardi",
        "sidetrack_max / bound_sidetrack (Lemma 7: <= 1)", NO},
    [RS_M_LEMMA7_VIOLATION] = {"lemma7_violation", S, "text", "bay_bilardi",
        "'none', or the leaf, stage and batch where the sidetracked messages exceeded Lemma 7's bound", NO},
    [RS_M_BOUND_BIT_STEPS] = {"bound_bit_steps", D, "bit steps", "bay_bilardi, flexible_sort",
        "the bound beside bit_steps: bay_bilardi, Theorem 1 with the cost model's constants (set-up + sum over the stages of the partition and 2 ceil(lambda(M)) batches, Lemma 6); flexible_sort, Theorem 2 without its constant, (b + log2 s) ceil(r/s)", NO},
    [RS_M_BIT_STEPS_OVER_BOUND] = {"bit_steps_over_bound", D, "1", "bay_bilardi, flexible_sort",
        "bit_steps / bound_bit_steps: bay_bilardi, <= 1 whenever Lemma 6 holds; flexible_sort, the constant measured", NO},
    [RS_M_THEOREM1_RATIO] = {"theorem1_ratio", D, "1", "bay_bilardi",
        "bit_steps / (max(lambda(M), 1) log^2 N): Theorem 1 says bounded", NO},
    [RS_M_BUTTERFLY_BIT_STEPS] = {"butterfly_bit_steps", I, "bit steps", "bay_bilardi (butterfly=1)",
        "makespan of greedy bit-serial routing of the same messages on the plain N-input butterfly (wormhole, 1 VC of 1 flit, a flit = a bit)", NO},
    [RS_M_PHASES] = {"phases", I, "phases", "flexible_sort",
        "sort steps of Lemma 8's algorithm (each sorts the w columns of s words)", NO},
    [RS_M_PERM_STEPS] = {"perm_steps", I, "steps", "flexible_sort",
        "permuting steps (the permutations between two sort steps combined into one)", NO},
    [RS_M_COLUMN_SORTS] = {"column_sorts", I, "sorts", "flexible_sort",
        "passes of a column through the s-word sorter (phases x w)", NO},
    [RS_M_SORT_DEPTH] = {"sort_depth", I, "levels", "flexible_sort",
        "levels of Columnsort recursion (0: one column, one sort)", NO},
    [RS_M_COLUMNS] = {"columns", I, "columns", "flexible_sort",
        "w, the cycle length: the next power of two >= ceil(r/s)", NO},
    [RS_M_SORT_BIT_STEPS] = {"sort_bit_steps", I, "bit steps", "flexible_sort",
        "the part of bit_steps spent in sort steps", NO},
    [RS_M_PERMUTE_BIT_STEPS] = {"permute_bit_steps", I, "bit steps", "flexible_sort",
        "the part of bit_steps spent in permuting steps", NO},
    [RS_M_BOUND_PHASES] = {"bound_phases", D, "phases", "flexible_sort",
        "Lemma 8's phase count (log r / log(s/2))^(2/log(3/2))", NO},
    [RS_M_STEP_BIT_STEPS] = {"step_bit_steps", S, "bit steps", "sorting_fat_tree",
        "bit steps of steps 1..8 of 000 §4.3 (local mesh routing, batching, row-major order, up-stages, peak sort, down batching, down-stages, final mesh routing), ';'-separated", NO},
    [RS_M_BATCH_LAMBDA_A] = {"batch_lambda_a", S, "messages/wire", "sorting_fat_tree",
        "lambda_a(M_*j) of each up-batch j = 0..log N - 1: the largest l_a(M_*j, c) / cap(c) over the tree channels, ';'-separated", NO},
    [RS_M_LAMBDA_A] = {"lambda_a", D, "messages/wire", "sorting_fat_tree",
        "lambda_a(M-bar): largest ascending load / cap(c) over the tree channels (capacities of 000 §4.2)", NO},
    [RS_M_LAMBDA_D] = {"lambda_d", D, "messages/wire", "sorting_fat_tree",
        "lambda_d(M-bar): largest descending load / cap(c) over the tree channels", NO},
    [RS_M_SFT_LOAD_FACTOR] = {"sft_load_factor", D, "messages/wire", "sorting_fat_tree",
        "lambda(M) on the sorting fat-tree: largest (ascending + descending load) / cap(c) over the tree channels", NO},
    [RS_M_BOUND_BATCH_LAMBDA_A] = {"bound_batch_lambda_a", I, "messages/wire", "sorting_fat_tree",
        "Lemma 10 without its constant: ceil(lambda_a(M-bar) / log N)", NO},
    [RS_M_BATCH_LAMBDA_A_OVER_BOUND] = {"batch_lambda_a_over_bound", D, "1", "sorting_fat_tree",
        "largest lambda_a(M_*j) / bound_batch_lambda_a (Lemma 10: bounded; 0 without inter-mesh messages)", NO},
    [RS_M_LEMMA10_EXCESS] = {"lemma10_excess", I, "channels", "sorting_fat_tree",
        "(batch, channel) pairs with l_a(M_*j, c) > sum over peak levels i of ceil(l_a(M_i, c) / log N), the count Lemma 10's proof establishes (must be 0)", NO},
    [RS_M_THEOREM3_RATIO] = {"theorem3_ratio", D, "1", "sorting_fat_tree",
        "bit_steps / (sft_load_factor log N + log^2 N): Theorem 3 says bounded", NO},
    [RS_M_LOCAL_MESSAGES] = {"local_messages", I, "messages", "sorting_fat_tree",
        "messages with source and destination in one mesh (step 1)", NO},
    [RS_M_AREA_FORMULA] = {"area_formula", D, "area units", "bay_bilardi, sorting_fat_tree",
        "a FORMULA, not simulated: the layout area the paper states, sorting fat-tree (2 xi sqrt(N) log N)^2 with xi = 1 (000 §4.2), pruned butterfly N log^2 N (O(N log^2 N), constant 1)", NO},
    [RS_M_AT2_FORMULA] = {"at2_formula", D, "area units x bit steps^2", "bay_bilardi, sorting_fat_tree",
        "a FORMULA: area_formula x bit_steps^2", NO},
    [RS_M_BOUND_AT2] = {"bound_at2", D, "area units x bit steps^2", "bay_bilardi, sorting_fat_tree",
        "a FORMULA: 000 §5's lower bound b^2 eta^2 N without its constant (b body bits, eta the reference load factor of the message set)", NO},
    [RS_M_AT2_OVER_BOUND] = {"at2_over_bound", D, "1", "bay_bilardi, sorting_fat_tree",
        "a FORMULA ratio: at2_formula / bound_at2 (nan when eta = 0)", NO},
    [RS_M_MS_SORT_SS] = {"ms_sort_ss", I, "1", "ms_mesh, ms_torus",
        "1 when step 2 ran Schnorr-Shamir, 0 when shearsort (chosen, or mesh_sort=schnorr_shamir on a side that is not q^4)", NO},

};

const char *const rs_metric_stat_suffixes[] = {"mean", "var", "sd", "min", "max", "ci95", NULL};

void rs_result_init(struct rs_result *r)
{
    memset(r, 0, sizeof *r);
    r->latency_mean = r->latency_p99 = r->latency_max = NAN;
}

/* Add one metric of the typed result to out. */
static int put_field(const struct rs_result *r, enum rs_metric id, struct rs_record *out)
{
    RS_ASSERT(id < RS_M__COUNT && rs_metric_defs[id].field != RS_METRIC_NO_FIELD);
    const struct rs_metric_def *d = &rs_metric_defs[id];
    const char *p = (const char *)r + d->field;
    if (d->type == RS_METRIC_INT) {
        int64_t v;
        memcpy(&v, p, sizeof v);
        return rs_record_int(out, d->name, v);
    }
    if (d->type == RS_METRIC_DOUBLE) {
        double v;
        memcpy(&v, p, sizeof v);
        return rs_record_double(out, d->name, v);
    }
    const char *s;
    memcpy(&s, p, sizeof s);
    return rs_record_string(out, d->name, s ? s : "");
}

int rs_result_record(const struct rs_result *r, const enum rs_metric *cols, size_t n,
                     struct rs_record *out)
{
    int rc = 0;
    RS_ASSERT(r != NULL && out != NULL && (cols != NULL || n == 0));
    for (size_t k = 0; k < n && !rc; k++)
        rc = put_field(r, cols[k], out);
    return rc ? RS_ENOMEM : 0;
}

int rs_metric_int(struct rs_record *out, enum rs_metric id, int64_t v)
{
    RS_ASSERT(id < RS_M__COUNT && rs_metric_defs[id].type == RS_METRIC_INT);
    return rs_record_int(out, rs_metric_defs[id].name, v);
}

int rs_metric_double(struct rs_record *out, enum rs_metric id, double v)
{
    RS_ASSERT(id < RS_M__COUNT && rs_metric_defs[id].type == RS_METRIC_DOUBLE);
    return rs_record_double(out, rs_metric_defs[id].name, v);
}

int rs_metric_string(struct rs_record *out, enum rs_metric id, const char *v)
{
    RS_ASSERT(id < RS_M__COUNT && rs_metric_defs[id].type == RS_METRIC_STRING);
    return rs_record_string(out, rs_metric_defs[id].name, v);
}

int rs_metric_level_int(struct rs_record *out, enum rs_metric id, uint32_t level, int64_t v)
{
    RS_ASSERT(id < RS_M__COUNT && rs_metric_defs[id].type == RS_METRIC_INT);
    const char *name = rs_metric_defs[id].name, *at = strstr(name, "<l>");
    RS_ASSERT(at != NULL);
    char buf[96];
    snprintf(buf, sizeof buf, "%.*s%u%s", (int)(at - name), name, level, at + 3);
    return rs_record_int(out, buf, v);
}

int rs_metric_level_double(struct rs_record *out, enum rs_metric id, uint32_t level, double v)
{
    RS_ASSERT(id < RS_M__COUNT && rs_metric_defs[id].type == RS_METRIC_DOUBLE);
    const char *name = rs_metric_defs[id].name, *at = strstr(name, "<l>");
    RS_ASSERT(at != NULL);
    char buf[96];
    snprintf(buf, sizeof buf, "%.*s%u%s", (int)(at - name), name, level, at + 3);
    return rs_record_double(out, buf, v);
}

/* 1 when name is declared name, "<l>" matching one or more digits. */
static int name_matches(const char *decl, const char *name)
{
    const char *at = strstr(decl, "<l>");
    if (!at)
        return !strcmp(decl, name);
    size_t pre = (size_t)(at - decl);
    if (strncmp(decl, name, pre))
        return 0;
    const char *s = name + pre;
    if (!isdigit((unsigned char)*s))
        return 0;
    while (isdigit((unsigned char)*s))
        s++;
    return !strcmp(s, at + 3);
}

const struct rs_metric_def *rs_metric_find(const char *name)
{
    RS_ASSERT(name != NULL);
    for (int i = 0; i < RS_M__COUNT; i++) {
        /* every enum rs_metric has its entry in the designated-initialiser table */
        RS_ASSERT(rs_metric_defs[i].name != NULL && rs_metric_defs[i].unit != NULL &&
                  rs_metric_defs[i].meaning != NULL);
        if (name_matches(rs_metric_defs[i].name, name))
            return &rs_metric_defs[i];
    }
    return NULL;
}

int rs_metric_check_name(const char *name, const char *what, struct rs_err *err)
{
    if (rs_metric_find(name))
        return 0;
    const char *us = strrchr(name, '_');
    for (int k = 0; us && rs_metric_stat_suffixes[k]; k++) /* makespan_mean */
        if (!strcmp(us + 1, rs_metric_stat_suffixes[k])) {
            char base[256];
            snprintf(base, sizeof base, "%.*s", (int)(us - name), name);
            if (rs_metric_find(base))
                return 0;
        }
    const char *names[RS_M__COUNT];
    for (int i = 0; i < RS_M__COUNT; i++)
        names[i] = rs_metric_defs[i].name;
    const char *near = NULL;
    char stat[256];
    if (us) { /* bound_maen: a metric with a misspelled statistic */
        snprintf(stat, sizeof stat, "%.*s", (int)(us - name), name);
        int ns = 0;
        while (rs_metric_stat_suffixes[ns])
            ns++;
        const char *suf = rs_suggest(us + 1, rs_metric_stat_suffixes, ns);
        if (rs_metric_find(stat) && suf) {
            size_t len = strlen(stat);
            snprintf(stat + len, sizeof stat - len, "_%s", suf);
            near = stat;
        }
    }
    near = near ? near : rs_suggest(name, names, RS_M__COUNT);
    if (near)
        return rs_err_set(err, RS_EUNKNOWN, "%s: unknown metric '%s' (did you mean '%s'?)", what,
                          name, near);
    return rs_err_set(err, RS_EUNKNOWN,
                      "%s: unknown metric '%s' (`routesim list metrics` lists them)", what, name);
}

static const char *const type_names[] = {"int", "real", "text"};

int rs_metric_format_list(struct rs_buf *out)
{
    int rc =
        rs_buf_puts(out, "metrics (record keys and CSV columns; a sweep's statistics file has "
                         "<metric>_mean, _var, _sd, _min, _max, _ci95; flit engines: wormhole, "
                         "virtual_cut_through, cut_through_partial, store_forward_flits; open "
                         "loop: injection_process=bernoulli; NaN is written nan in tables and "
                         "CSV, null in JSON)\n");
    for (int i = 0; i < RS_M__COUNT && !rc; i++) {
        const struct rs_metric_def *d = &rs_metric_defs[i];
        rc = rs_buf_printf(out, "  %-26s %s, %s; from %s\n      %s\n", d->name, type_names[d->type],
                           d->unit, d->producers, d->meaning);
    }
    return rc ? RS_ENOMEM : 0;
}
