#pragma once
// Measured per-operation tables (presets/measurements/*.json) and the per-op rate model fitted on
// them: the reader, the fit (once per GPU, on the per-op table only) and the model-vs-measured
// comparison per op family that `comet-cli validate --ops FILE` prints.

#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "comet/op_rates.hpp"
#include "comet/spec.hpp"
#include "comet/scenario.hpp"  // Loaded<T>

namespace comet::ops {

struct GemmRow {
    long long m = 0, n = 0, k = 0;  // weight gradients: m = tokens (the inner dimension), n x k = dW
    double time_s = 0;
};
struct AttentionRow {
    AttentionKernel kernel = AttentionKernel::cudnn;
    AttentionShape shape{};
    double fwd_s = 0, bwd_s = 0;
};
struct GroupedRow {
    GroupedShape shape{};  // k = hidden, n = up_width
    double grouped_s = 0, per_expert_s = 0;
};
struct HbmRow {
    double mib = 0;  // copied, read once and written once
    double time_s = 0;
};

struct OpTable {
    std::string file, device, what, how;
    std::vector<GemmRow> gemm_bf16, gemm_fp8, wgrad_bf16;
    std::vector<AttentionRow> attention;
    long long attention_kv_heads = 0;
    std::vector<GroupedRow> grouped;
    std::vector<HbmRow> hbm;
    double kernel_gap_in_graph_us = 0;  // 0: not measured
};

// Reads the format of presets/measurements/ (its "what" and "how" keys say what each table is).
// Every problem is reported as "<label>: <key path>: <problem>" naming the value and what is
// allowed; never throws.
[[nodiscard]] Loaded<OpTable> read_op_table(std::string_view text, std::string label);
[[nodiscard]] Loaded<OpTable> load_op_table(const std::filesystem::path& file);

// The datasheet of the table's device ("NVIDIA H200" -> H200 SXM), or a problem.
[[nodiscard]] Loaded<GpuDatasheet> datasheet_for(std::string_view device);

// How long the GPU had been busy when a row was timed, from the table's method
// (presets/measurements/method_sweep.py): graph replays of `reps` back-to-back kernels, three
// replays, reps = clamp(2 ms / (flops / nominal rate), 3, 200). Feeds the power clock.
enum class OpFamily { gemm_bf16, gemm_fp8, wgrad_bf16, attention_fwd, attention_bwd, grouped, per_expert, hbm_copy };
[[nodiscard]] double measured_busy_s(OpFamily family, double flops_or_bytes, double time_s);

// Fits the rate model's parameters on the table: a deterministic coordinate search over a fixed
// grid per parameter, minimising the mean |ln(model / measured)| of the family's rows, the same
// rule for every family. GEMM (bf16, fp8, weight gradient together) first, as it sets the power
// clock, the launch and the HBM efficiency that the others share; then each attention family,
// the grouped kernel and the HBM copy.
[[nodiscard]] OpRateModel fit_op_rates(const OpTable& table, const GpuDatasheet& gpu);

struct OpRowError {
    std::string family;  // "gemm_bf16", "attention cudnn fwd", ...
    std::string shape;   // "M=256 N=1024 K=128"
    std::string also;    // a target subset the row also counts in ("hbm_copy >=64MiB"), or ""
    double measured_s = 0, model_s = 0;
    [[nodiscard]] double error() const noexcept { return measured_s > 0 ? model_s / measured_s - 1 : 0; }
};
struct OpFamilyError {
    std::string family;
    int count = 0, within_5 = 0, within_10 = 0, within_15 = 0, within_25 = 0;
    double mean_abs = 0, mean_signed = 0, worst = 0;  // errors as fractions; worst keeps its sign
    std::string worst_shape;
};
struct OpValidation {
    std::string file, device;
    OpRateModel model;
    std::vector<OpRowError> rows;
    std::vector<OpFamilyError> families;  // per family, then the target subsets
    // With a node preset: its GEMMs as a training step prices them (compare_node_ops).
    std::string node_name;
    std::vector<OpRowError> node_rows;
    std::vector<OpFamilyError> node_families;
    std::array<AttentionModel, 2> node_attention_fit{};  // cudnn (node.attention), flash2 (node.attention_flash2)
};

[[nodiscard]] std::vector<OpRowError> compare_op_table(const OpRateModel& model, const OpTable& table);
// Per family, plus: "gemm (bf16 + fp8)", "attention <kernel> seq>=2048" (forward and backward)
// and "hbm_copy >=64MiB".
[[nodiscard]] std::vector<OpFamilyError> summarize_op_errors(const std::vector<OpRowError>& rows);
[[nodiscard]] OpValidation validate_op_table(const OpTable& table, const GpuDatasheet& gpu);
// The same, and the node preset's GEMMs (node_name: how the report names it) against the table.
[[nodiscard]] OpValidation validate_op_table(const OpTable& table, const GpuDatasheet& gpu, const NodeSpec& node,
                                             const std::string& node_name);

// The table's GEMM rows (BF16, FP8, weight gradients) and attention rows as the training-step
// model prices them on `node` (compute_rates() and pass_time_s() of one GEMM: the node's peak
// fractions, tile fill, waves, split-K, HBM roofline and launch; of one fused attention pass: the
// node's `attention` for cuDNN rows, `attention_flash2` (or `attention` where it gives none) for
// FlashAttention-2 rows, over the keys the step counts), with the node's peaks scaled by `clock`
// to the clock each row was measured at (the step itself runs at the sustained clock). Families
// are named "node gemm_bf16", ..., "node attention cudnn fwd", ...; a node without FP8 gives its
// FP8 rows no time (a 100 % error).
[[nodiscard]] std::vector<OpRowError> compare_node_ops(const NodeSpec& node, const OpTable& table, const PowerClock& clock);

// The node's fused-attention parameters in the step's form (AttentionModel: max_fraction,
// softmax_head_dim, backward_efficiency, fill_keys) fitted on the table's rows of one kernel
// family, priced as compare_node_ops() does, by the rule of fit_op_rates() (mean |ln error|
// capped at ln 1.3; fraction and softmax cost searched jointly) from a fixed start.
[[nodiscard]] AttentionModel fit_node_attention(const NodeSpec& node, const OpTable& table, const PowerClock& clock,
                                                AttentionKernel kernel);

[[nodiscard]] std::string format_op_validation_text(const OpValidation& v);
[[nodiscard]] std::string format_op_validation_json(const OpValidation& v);

}  // namespace comet::ops
