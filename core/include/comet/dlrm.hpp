#pragma once
// DLRM, the second workload (docs/model.md, "DLRM"): the shape of a recommendation model
// (embedding tables, bottom and top MLPs, the interaction) and its evaluation on a cluster:
// embedding lookups and row updates on the tier that holds the rows, the index, pooled-vector
// and gradient exchanges on the network tiers their group spans, the MLPs on the roofline and
// their data-parallel gradient all-reduce, memory per tier. Plain arithmetic; never throws,
// never allocates.

#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet {

// Totals over the table groups.
[[nodiscard]] double dlrm_table_count(const DlrmSpec& d) noexcept;
[[nodiscard]] double dlrm_embedding_rows(const DlrmSpec& d) noexcept;
[[nodiscard]] double dlrm_embedding_parameters(const DlrmSpec& d) noexcept;  // rows x dim
[[nodiscard]] double dlrm_embedding_bytes(const DlrmSpec& d) noexcept;       // rows x dim x dtype
[[nodiscard]] double dlrm_pooled_width(const DlrmSpec& d) noexcept;          // sum of count x dim
[[nodiscard]] double dlrm_lookups_per_sample(const DlrmSpec& d) noexcept;    // sum of count x pooling
// Width of the bottom MLP's output (dense_features without a bottom MLP).
[[nodiscard]] double dlrm_bottom_width(const DlrmSpec& d) noexcept;
// Width the interaction hands the top MLP: the bottom output and the pairwise dot products of
// the T + 1 vectors (dot), or the concatenation the cross layers keep (dcn).
[[nodiscard]] double dlrm_interaction_width(const DlrmSpec& d) noexcept;
// Parameters of the bottom MLP, the cross layers and the top MLP (weights and biases).
[[nodiscard]] double dlrm_mlp_parameters(const DlrmSpec& d) noexcept;
// FLOPs of one sample's forward pass through the MLPs and the interaction (GEMMs), the basis of
// model FLOPs and MFU; the pooling sums are element-wise work and not counted.
[[nodiscard]] double dlrm_forward_flops_per_sample(const DlrmSpec& d) noexcept;

// The MLPerf Training DLRM-DCNv2 reference model (mlcommons/training, recommendation_v2/
// torchrec_dlrm, README): 26 tables of 128 columns (Criteo 1TB, rows capped at 40 M) with the
// benchmark's multi-hot sizes, 13 dense features, bottom MLP 512-256-128, three DCNv2 cross
// layers of rank 512, top MLP 1024-1024-512-256-1, row-wise Adagrad on the tables (its
// --adagrad flag: EXACT_ROWWISE_ADAGRAD fused into the embedding backward).
[[nodiscard]] DlrmSpec mlperf_dcnv2_dlrm() noexcept;

// Switches a configuration to workload `w` with a strategy that workload can run on the same
// accelerators (tp x pp x cp x dp of them): a DLRM all of them data-parallel; a transformer tp 1,
// pp 1, dp all, microbatch 1. The embedding and overlap settings are kept. A DLRM without tables
// gets mlperf_dcnv2_dlrm(). Nothing changes when the workload already is `w`.
void switch_workload(Config& c, Workload w) noexcept;

// Scale every table's rows so that the tables hold `bytes` in all (the sweeps' table-size axis).
void dlrm_scale_embedding_bytes(DlrmSpec& d, double bytes) noexcept;

// The busiest rank's share of the tables under a sharding over `ranks` ranks for a global batch
// of `batch` samples: table-wise, the greedy planner's busiest rank (tables taken largest first,
// each onto the least-loaded rank) for each quantity; row- and column-wise, an even share.
struct DlrmRankShare {
    double lookups = 0;       // row (segment) reads per iteration
    double hbm_lookup = 0;    // bytes those reads move from HBM (32 B sectors)
    double link_lookup = 0;   // bytes they move over the expanded tier's link (64 B lines)
    double pooled_elems = 0;  // elements summed into pooled vectors
    double state_lookup = 0;  // optimizer-state bytes of the rows read
    double rows_bytes = 0;    // rows held
    double state_bytes = 0;   // their optimizer state
    double out_width = 0;     // pooled-vector columns per sample the rank produces (row-wise: partial sums of all)
    double imbalance = 1;     // busiest over mean rank, by lookup traffic (1 unless table-wise)
};
[[nodiscard]] DlrmRankShare dlrm_rank_share(const DlrmSpec& d, EmbeddingSharding sharding, double batch, double ranks) noexcept;

// Structural checks of a DLRM configuration whose fields are in range (the DLRM's counterpart
// of the transformer's rank and split checks): accelerators, batch split, sharding, tiers.
[[nodiscard]] Infeasible dlrm_problem(const Config& c, double& a, double& b) noexcept;

// Evaluate a DLRM configuration whose fields are in range (evaluate() dispatches here).
[[nodiscard]] Result evaluate_dlrm(const Config& c) noexcept;

}  // namespace comet
