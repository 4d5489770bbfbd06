#pragma once
// Readers and writers of the sections shared by scenario and preset files (model, node,
// training, strategy), and the names of enum values as they appear in files. Internal to core.

#include <array>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "comet/scenario.hpp"
#include "formats/json_reader.hpp"

namespace comet::sections {

inline constexpr std::array<EnumName<Precision>, 5> precision_names{
    {{"fp16", Precision::fp16}, {"bf16", Precision::bf16}, {"fp8", Precision::fp8}, {"mxfp8", Precision::mxfp8}, {"fp4", Precision::fp4}}};
inline constexpr std::array<EnumName<Recompute>, 3> recompute_names{
    {{"none", Recompute::none}, {"selective", Recompute::selective}, {"full", Recompute::full}}};
inline constexpr std::array<EnumName<AttentionKernel>, 2> attention_names{
    {{"unfused", AttentionKernel::unfused}, {"fused", AttentionKernel::fused}}};
inline constexpr std::array<EnumName<EpDispatch>, 2> ep_dispatch_names{
    {{"all_to_all", EpDispatch::all_to_all}, {"hierarchical", EpDispatch::hierarchical}}};
inline constexpr std::array<EnumName<GroupedGemm>, 2> grouped_gemm_names{
    {{"per_expert", GroupedGemm::per_expert}, {"one_kernel", GroupedGemm::one_kernel}}};
inline constexpr std::array<EnumName<FusedAttention>, 2> fused_attention_names{
    {{"vendor", FusedAttention::vendor}, {"flash2", FusedAttention::flash2}}};
inline constexpr std::array<EnumName<GraphScope>, 3> graph_scope_names{
    {{"none", GraphScope::none}, {"dense", GraphScope::dense}, {"full", GraphScope::full}}};
inline constexpr std::array<EnumName<Optimizer>, 2> optimizer_names{{{"adam", Optimizer::adam}, {"sgd", Optimizer::sgd}}};
inline constexpr std::array<EnumName<GradDtype>, 2> grad_dtype_names{{{"fp32", GradDtype::fp32}, {"bf16", GradDtype::bf16}}};
inline constexpr std::array<EnumName<ExpandedAttach>, 3> attach_names{
    {{"per_accelerator", ExpandedAttach::per_accelerator}, {"per_node", ExpandedAttach::per_node}, {"pooled", ExpandedAttach::pooled}}};

inline constexpr std::array<EnumName<Workload>, 2> workload_names{{{"transformer", Workload::transformer}, {"dlrm", Workload::dlrm}}};
inline constexpr std::array<EnumName<DlrmInteraction>, 2> interaction_names{{{"dot", DlrmInteraction::dot}, {"dcn", DlrmInteraction::dcn}}};
inline constexpr std::array<EnumName<EmbeddingDtype>, 3> embedding_dtype_names{
    {{"fp32", EmbeddingDtype::fp32}, {"fp16", EmbeddingDtype::fp16}, {"bf16", EmbeddingDtype::bf16}}};
inline constexpr std::array<EnumName<EmbeddingOptimizer>, 4> embedding_optimizer_names{
    {{"sgd", EmbeddingOptimizer::sgd},
     {"rowwise_adagrad", EmbeddingOptimizer::rowwise_adagrad},
     {"adagrad", EmbeddingOptimizer::adagrad},
     {"adam", EmbeddingOptimizer::adam}}};
inline constexpr std::array<EnumName<EmbeddingSharding>, 3> emb_sharding_names{{{"table_wise", EmbeddingSharding::table_wise},
                                                                                {"row_wise", EmbeddingSharding::row_wise},
                                                                                {"column_wise", EmbeddingSharding::column_wise}}};
inline constexpr std::array<EnumName<EmbeddingPlacement>, 3> emb_placement_names{
    {{"hbm", EmbeddingPlacement::hbm}, {"expanded", EmbeddingPlacement::expanded}, {"cached", EmbeddingPlacement::cached}}};
inline constexpr std::array<EnumName<EmbeddingStateTier>, 3> emb_state_names{
    {{"with_rows", EmbeddingStateTier::with_rows}, {"hbm", EmbeddingStateTier::hbm}, {"expanded", EmbeddingStateTier::expanded}}};

template <class E, std::size_t N>
inline constexpr std::string_view name_of(const std::array<EnumName<E>, N>& names, E v) noexcept {
    for (const auto& n : names)
        if (n.value == v) return n.name;
    return "invalid";
}

// Keys the file left out whose defaults derive from other keys; a range error on them is
// only a consequence of an error on their source, so it is not reported twice.
struct Derived {
    bool kv_heads = false;
    bool head_dim = false;
};

// What is allowed at a key path, from the range-rule table (for type-error messages).
[[nodiscard]] std::string allowed_by_rule(std::string_view path);

void read_model(ObjectReader& o, ModelSpec& m, Provenance& info, Derived& derived);
// What an older file's node object may still give that is the software's now; nullptr = every
// such key is refused with where it belongs.
struct LegacyNodeSoftware {
    bool host_op_allowed = false;  // scenario formats 1 and 2: host_op_us
    double host_op_us = 0;
    bool memory_allowed = false;  // scenario formats 1 to 3, node preset files: the HBM reserve and margin
    LegacyNodeMemory memory;
};
void read_node(ObjectReader& o, NodeSpec& n, Provenance& info, LegacyNodeSoftware* legacy = nullptr);
void read_software(ObjectReader& o, SoftwareSpec& sw, Provenance& info);
void read_training(ObjectReader& o, TrainingSpec& t);
// A DLRM's strategy needs only dp (tp, pp and microbatch default to 1); a transformer's needs
// tp, pp, dp and microbatch.
void read_strategy(ObjectReader& o, Strategy& s, Workload w = Workload::transformer);
// The "dlrm" section (docs/scenario-format.md): tables (a table's rows may be a geometric spread
// {"from", "to"}, read as up to 8 groups), MLP widths as lists, interaction, data types.
void read_dlrm(ObjectReader& o, DlrmSpec& d, Provenance& info);
[[nodiscard]] nlohmann::ordered_json dlrm_json(const DlrmSpec& d, const Provenance& info);

[[nodiscard]] nlohmann::ordered_json model_json(const ModelSpec& m, const Provenance& info);
[[nodiscard]] nlohmann::ordered_json node_json(const NodeSpec& n, const Provenance& info);
[[nodiscard]] nlohmann::ordered_json training_json(const TrainingSpec& t);
[[nodiscard]] nlohmann::ordered_json software_json(const SoftwareSpec& sw, const Provenance& info);
// A DLRM's strategy is written with the keys it uses: dp, the data-parallel overlap and the
// embedding sharding and placement.
[[nodiscard]] nlohmann::ordered_json strategy_json(const Strategy& s, Workload w = Workload::transformer);

}  // namespace comet::sections
