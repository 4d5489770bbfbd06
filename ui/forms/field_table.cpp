#include "forms/field_table.hpp"

#include "comet/dlrm.hpp"
#include "comet/fields.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <type_traits>
#include <vector>

namespace comet::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("comet::ui::FieldTable", text); }

// Sets a field through the registry's setter (rounding as files do).
void set_field(Config& c, const char* path, double v) noexcept {
    if (const FieldDesc* d = comet::find_field(path)) d->set(c, v);
}

// Turning a dense model into a mixture of experts also fills in what a dense model leaves
// unset: top-2 routing and experts as wide as the dense MLP, so that the edit is valid at once.
void set_experts(Config& c, double v) noexcept {
    ModelSpec& m = c.model;
    const bool was_dense = !m.is_moe();
    set_field(c, "model.experts", v);
    if (!was_dense || !m.is_moe()) return;
    if (m.experts_per_token <= 0) m.experts_per_token = std::min(2, m.experts);
    if (m.expert_ffn_hidden <= 0) m.expert_ffn_hidden = m.ffn_hidden;
    if (m.moe_layer_interval <= 0) m.moe_layer_interval = 1;
    if (!(m.capacity_factor > 0)) m.capacity_factor = 1.0;
}

// Turning on multi-head latent attention fills in head sizes a model without it leaves unset,
// DeepSeek's proportions on the current head size (query/key heads of head_dim + head_dim / 2
// RoPE, value heads of head_dim), so that the edit is valid at once.
void set_kv_lora_rank(Config& c, double v) noexcept {
    ModelSpec& m = c.model;
    const bool was_mha = !m.is_mla();
    set_field(c, "model.kv_lora_rank", v);
    if (!was_mha || !m.is_mla()) return;
    const int d = std::max(1, m.head_dim);
    if (m.qk_nope_head_dim + m.qk_rope_head_dim < 1) {
        m.qk_nope_head_dim = d;
        m.qk_rope_head_dim = d / 2;
    }
    if (m.v_head_dim < 1) m.v_head_dim = d;
}

// The workload switch keeps the accelerators and gives the other workload a strategy it can run
// (switch_workload in core): a DLRM starts from the MLPerf DLRM-DCNv2 shape when it has none.
void set_workload(Config& c, double v) noexcept {
    Config chosen = c;
    set_field(chosen, "workload", v);
    switch_workload(c, chosen.workload);
}

using Get = double (*)(const Config&) noexcept;
using Set = void (*)(Config&, double) noexcept;
using G = FieldGroup;
constexpr double adaptive = 0;

// A field's accessors come from the core's registry (comet/fields.hpp), by path.
Get getter(const char* path) {
    const FieldDesc* d = comet::find_field(path);
    return d != nullptr ? d->get : nullptr;
}
Set setter(const char* path) {
    const FieldDesc* d = comet::find_field(path);
    return d != nullptr ? d->set : nullptr;
}

FieldSpec integer(const char* path, G g, const char* label, const char* unit, const char* tip, double step) {
    return {path, g, tr(label), QString::fromUtf8(unit), tr(tip), FieldKind::integer, 0, step, {}, getter(path), setter(path)};
}

FieldSpec real(const char* path, G g, const char* label, const char* unit, const char* tip, int decimals, double step) {
    return {path, g, tr(label), QString::fromUtf8(unit), tr(tip), FieldKind::real, decimals, step, {}, getter(path), setter(path)};
}

FieldSpec zero_means(const char* text, FieldSpec f) {
    f.zero_text = tr(text);
    return f;
}

// A form that also fills in what the edit needs to stay valid (set_experts, ...).
FieldSpec with_setter(Set set, FieldSpec f) {
    f.set = set;
    return f;
}

FieldSpec boolean(const char* path, G g, const char* label, const char* tip) {
    return {path, g, tr(label), {}, tr(tip), FieldKind::boolean, 0, 1, {}, getter(path), setter(path)};
}

FieldSpec choice(const char* path, G g, const char* label, const char* tip, std::initializer_list<const char*> items) {
    QStringList labels;
    for (const char* item : items) labels << tr(item);
    return {path, g, tr(label), {}, tr(tip), FieldKind::choice, 0, 1, labels, getter(path), setter(path)};
}

std::vector<FieldSpec> node_fields() {
    return {
        integer("node.accelerators", G::node_compute, "Accelerators", "",
                "Accelerators (GPUs) in one node. With the node count it sets how many accelerators "
                "tp × pp × dp can use.",
                1),
        real("node.matrix_fp16_tflops", G::node_compute, "FP16/BF16 tensor peak", " TFLOP/s",
             "Dense fp16/bf16 tensor-core peak of one accelerator (datasheet). GEMM time scales "
             "inversely with it until HBM traffic bounds it.",
             1, adaptive),
        zero_means("none", real("node.matrix_fp8_tflops", G::node_compute, "FP8 tensor peak", " TFLOP/s",
                                "Dense fp8 tensor-core peak of one accelerator; 0 means no fp8 support. Used when the "
                                "training precision is FP8.",
                                1, adaptive)),
        zero_means("none", real("node.matrix_fp4_tflops", G::node_compute, "FP4 tensor peak", " TFLOP/s",
                                "Dense fp4 (NVFP4/MXFP4) tensor-core peak of one accelerator; 0 means no fp4 support "
                                "(Blackwell and later have one). Used when the training precision is FP4.",
                                1, adaptive)),
        real("node.vector_tflops", G::node_compute, "Vector peak", " TFLOP/s",
             "Non-tensor 16-bit throughput of one accelerator, for element-wise work such as norms, "
             "activations and softmax.",
             1, adaptive),
        real("node.gemm.max_fraction", G::node_compute, "GEMM peak fraction", "",
             "The largest fraction of the tensor peak a GEMM reaches (clocks under sustained load, "
             "wave quantization). Scales the time of every GEMM.",
             3, 0.005),
        real("node.gemm.tile_overhead_k", G::node_compute, "GEMM tile overhead", " steps",
             "Fixed cost of each output tile in inner-loop (K) steps: a GEMM with inner dimension K "
             "runs at K / (K + overhead) of the peak fraction. Penalises thin matrices, e.g. under "
             "wide tensor parallelism.",
             0, adaptive),
        zero_means("as GEMM", real("node.gemm.fp8_max_fraction", G::node_compute, "FP8 GEMM peak fraction", "",
                                   "The largest fraction of the FP8 tensor peak a large FP8 GEMM reaches; usually below the 16-bit "
                                   "fraction (same power cap, same operand traffic per FLOP at half the bytes). 0 = the GEMM peak "
                                   "fraction above. Used with FP8 and MXFP8 precision.",
                                   3, 0.005)),
        zero_means("as FP8", real("node.gemm.fp4_max_fraction", G::node_compute, "FP4 GEMM peak fraction", "",
                                  "The largest fraction of the FP4 tensor peak a large FP4 GEMM reaches. 0 = the FP8 GEMM peak "
                                  "fraction (then the GEMM peak fraction). Used with FP4 precision.",
                                  3, 0.005)),
        zero_means("as GEMM", real("node.gemm.fp8_tile_overhead_k", G::node_compute, "FP8 GEMM tile overhead", " steps",
                                   "Fixed cost of each output tile of an FP8 or FP4 GEMM in inner-loop steps (their kernels "
                                   "fill deeper pipelines). 0 = the GEMM tile overhead above.",
                                   0, adaptive)),
        zero_means("no waves", integer("node.gemm.sms", G::node_compute, "Streaming multiprocessors", "",
                                       "SMs (compute units) a GEMM's output tiles run on, in waves: a GEMM whose tiles "
                                       "leave the last wave part-empty pays for the whole wave. 0 = a GEMM is one "
                                       "continuous stream at the peak fraction.",
                                       1)),
        integer("node.gemm.max_split_k", G::node_compute, "GEMM split-K", "",
                "Most ways the library splits a GEMM's inner loop to fill the SMs when its output has few tiles "
                "(1 = never). Used with SMs above.",
                1),
        real("node.gemm.min_split_k_depth", G::node_compute, "Split-K depth", " steps", "Inner-loop steps each split keeps at least.", 0,
             adaptive),
        real("node.gemm.launch_overhead_us", G::node_compute, "Kernel launch overhead", " µs",
             "Fixed time every kernel pays. Matters with small microbatches and thin layers.", 1, adaptive),
        real("node.hbm_capacity_gib", G::node_compute, "HBM capacity", " GiB",
             "HBM of one accelerator. Weights, gradients, optimizer states and activations must fit "
             "in it, less the reserve, unless offloaded.",
             1, adaptive),
        real("node.hbm_bandwidth_gbps", G::node_compute, "HBM bandwidth", " GB/s",
             "Peak HBM bandwidth of one accelerator. Bounds memory-bound kernels: element-wise work, "
             "thin GEMMs, the optimizer step.",
             1, adaptive),
        real("node.hbm_efficiency", G::node_compute, "HBM efficiency", "",
             "Achievable fraction of the HBM bandwidth for streaming kernels.", 2, 0.01),
        zero_means("unknown", real("node.power_kw", G::node_compute, "Node power", " kW",
                                   "Power of the whole node at load (accelerators, CPUs, NICs, fans), for energy and cost. "
                                   "0 = unknown: no energy is counted.",
                                   1, adaptive)),

        real("node.attention.max_fraction", G::attention_kernel, "Peak fraction", "",
             "The largest fraction of the 16-bit tensor peak a fused (FlashAttention-class) attention "
             "kernel reaches in forward. Scales the time of the attention scores and their products.",
             3, 0.005),
        real("node.attention.softmax_head_dim", G::attention_kernel, "Softmax cost", " steps",
             "The exponentials and vector work per score that the kernel cannot overlap, in head-dimension "
             "steps: heads of size d run at peak fraction × d / (d + this). Penalises small heads.",
             0, adaptive),
        real("node.attention.backward_efficiency", G::attention_kernel, "Backward efficiency", "",
             "Fraction of the forward kernel's speed the attention backward reaches (atomic dQ "
             "accumulation, five products per tile).",
             3, 0.005),
        zero_means("as GEMM tile", real("node.attention.fill_keys", G::attention_kernel, "Fill per query row", " keys",
                                        "Fixed cost of each query row (loading the queries, writing the output and the "
                                        "softmax statistics, the pipeline's fill) in key positions: short sequences pay "
                                        "more per score. -1 = the GEMM tile overhead.",
                                        0, adaptive)),
        zero_means("as above", real("node.attention_flash2.max_fraction", G::attention_kernel, "FA2 peak fraction", "",
                                    "FlashAttention-2's kernel, for software that calls it instead of the vendor's: the "
                                    "fraction of the 16-bit tensor peak it reaches in forward (on Hopper it lacks the "
                                    "asynchronous tensor-core path and reaches about half of cuDNN's rate, measured). "
                                    "0 = it runs as the kernel above (Ampere, where it is the tuned kernel).",
                                    3, 0.005)),
        real("node.attention_flash2.softmax_head_dim", G::attention_kernel, "FA2 softmax cost", " steps",
             "FlashAttention-2's unoverlapped softmax work per score in head-dimension steps, as for the "
             "kernel above.",
             0, adaptive),
        real("node.attention_flash2.backward_efficiency", G::attention_kernel, "FA2 backward efficiency", "",
             "Fraction of FlashAttention-2's forward speed its backward reaches.", 3, 0.005),
        zero_means("as GEMM tile", real("node.attention_flash2.fill_keys", G::attention_kernel, "FA2 fill per query row", " keys",
                                        "FlashAttention-2's fixed cost per query row in key positions, as for the kernel "
                                        "above. -1 = the GEMM tile overhead.",
                                        0, adaptive)),

        zero_means("none", real("node.expanded.capacity_gib", G::expanded_memory, "Capacity", " GiB",
                                "Second memory tier per attachment point: host DDR, CXL expanders or a pooled memory "
                                "box. 0 means no expanded tier; offloading needs one.",
                                1, adaptive)),
        real("node.expanded.bandwidth_gbps", G::expanded_memory, "Bandwidth", " GB/s",
             "Bandwidth per attachment point and direction, shared by the accelerators behind it. "
             "Sets the time of offload traffic.",
             1, adaptive),
        real("node.expanded.latency_us", G::expanded_memory, "Latency", " µs", "Access latency of the expanded tier, paid per transfer.", 2,
             adaptive),
        choice("node.expanded.attach", G::expanded_memory, "Attached",
               "Where the tier attaches: to each accelerator, to each node (shared by its "
               "accelerators), or as a pool shared by several nodes.",
               {"Per accelerator", "Per node", "Pooled"}),
        integer("node.expanded.pool_nodes", G::expanded_memory, "Nodes per pool", "",
                "For a pooled tier: how many nodes share one pool, dividing its capacity and "
                "bandwidth among them.",
                1),

        integer("node.scale_up.domain_size", G::scale_up, "Domain size", "",
                "Accelerators that share the scale-up fabric (an NVLink domain). Collectives within "
                "the domain use it; beyond it they cross the scale-out network.",
                1),
        real("node.scale_up.bandwidth_gbps", G::scale_up, "Bandwidth", " GB/s",
             "Scale-up bandwidth per accelerator and direction. Sets the time of tensor-parallel "
             "collectives inside the domain.",
             1, adaptive),
        real("node.scale_up.latency_us", G::scale_up, "Latency", " µs",
             "Per-message latency of the fabric; matters for many small collectives.", 1, adaptive),
        real("node.scale_up.efficiency", G::scale_up, "Efficiency", "", "Achievable fraction of the link bandwidth for large collectives.",
             2, 0.01),
        zero_means("none", real("node.scale_up.switch_allreduce_fraction", G::scale_up, "In-switch all-reduce", "",
                                "The switches reduce and multicast (NVLink SHARP, NCCL's NVLS): an all-reduce inside the "
                                "domain reaches this fraction of the bandwidth as algorithm bandwidth (0.61 measured on "
                                "8 H100, 0.54 on 8 B300). Used where the software allows it. 0 = the switch does not reduce.",
                                2, 0.01)),

        real("node.scale_out.bandwidth_gbps", G::scale_out, "Bandwidth", " GB/s",
             "Network bandwidth per accelerator and direction (a 200 Gbit/s NIC is 25 GB/s). Sets the "
             "time of data-parallel and cross-node pipeline traffic.",
             1, adaptive),
        real("node.scale_out.latency_us", G::scale_out, "Latency", " µs", "Per-message latency between nodes.", 1, adaptive),
        real("node.scale_out.efficiency", G::scale_out, "Efficiency", "",
             "Achievable fraction of the network bandwidth for large transfers.", 2, 0.01),
        integer("node.scale_out.leaf_domains", G::scale_out, "Nodes per leaf", "",
                "Scale-up domains (nodes) under one leaf switch or rail group at full bandwidth; traffic "
                "between leaves crosses the spine. 0 = one non-blocking tier.",
                1),
        real("node.scale_out.oversubscription", G::scale_out, "Spine oversubscription", " : 1",
             "Leaf downlink to spine uplink bandwidth (2 = a 2:1 spine). Slows all-to-alls that leave a "
             "leaf, and rings with fewer members per leaf than the ratio.",
             2, 0.5),
        real("node.scale_out.spine_latency_us", G::scale_out, "Spine latency", " µs", "Extra latency per message that crosses the spine.",
             1, adaptive),
        boolean("node.scale_out.rail_only", G::scale_out, "Rail-only",
                "Each NIC reaches only the accelerators of the same local rank in other nodes (no switch "
                "between rails): all-to-all traffic for another rail is forwarded over the scale-up "
                "fabric first. Rings and pipeline exchanges stay on their rail."),

        integer("cluster.nodes", G::cluster, "Nodes", "",
                "Nodes in the cluster. Nodes × accelerators per node is what tp × pp × dp may use.", 1),
    };
}

std::vector<FieldSpec> model_fields() {
    return {
        with_setter(set_workload, choice("workload", G::model, "Workload",
                                         "What the cluster trains: a decoder-only transformer, or a DLRM-style recommendation model "
                                         "(embedding tables with bottom and top MLPs). Switching keeps the accelerators and gives the "
                                         "other workload a strategy it can run; a DLRM starts from the MLPerf DLRM-DCNv2 shape.",
                                         {"Transformer", "Recommendation model (DLRM)"})),
        integer("model.layers", G::model, "Layers", "", "Transformer layers. Pipeline stages × interleaving must divide them.", 1),
        integer("model.hidden", G::model, "Hidden size", "", "Width of the residual stream. Parameters and FLOPs grow with its square.",
                adaptive),
        integer("model.heads", G::model, "Attention heads", "", "Attention heads. Tensor parallelism must divide them.", 1),
        integer("model.kv_heads", G::model, "KV heads", "",
                "Key/value heads: as many as the attention heads for multi-head attention, fewer for "
                "grouped-query or multi-query attention. Must divide the attention heads.",
                1),
        integer("model.head_dim", G::model, "Head dimension", "", "Width of one attention head, usually hidden size / heads.", 1),
        integer("model.ffn_hidden", G::model, "MLP width", "",
                "Width of the MLP (per matrix for gated MLPs), often 4 × hidden size. Tensor parallelism "
                "must divide it.",
                adaptive),
        boolean("model.gated_mlp", G::model, "Gated MLP (SwiGLU)", "SwiGLU-style MLP with three matrices instead of two, as in Llama."),
        integer("model.seq_len", G::model, "Sequence length", " tokens",
                "Tokens per sequence. Activation memory grows with it, attention work with its square.", adaptive),
        integer("model.vocab", G::model, "Vocabulary", " tokens", "Vocabulary size: sets the embedding table and the logits.", adaptive),
        boolean("model.tied_embeddings", G::model, "Tied embeddings",
                "Input and output embeddings share one weight matrix, whose gradients the first and "
                "last pipeline stage then synchronise."),
        boolean("model.bias", G::model, "Biases", "Biases in linear layers and norms (GPT-2/3); off for Llama-style models."),
        boolean("model.learned_position_embeddings", G::model, "Learned position embeddings",
                "A learned table of position embeddings (GPT); off for rotary embeddings (RoPE)."),
        zero_means("off (full attention)",
                   integer("model.sliding_window", G::model, "Sliding window", " tokens",
                           "Sliding-window attention: a layer attends to at most this many preceding tokens, so its "
                           "attention work grows with the window instead of the sequence. 0 = every layer attends to "
                           "the whole sequence. GPT-OSS uses 128.",
                           adaptive)),
        zero_means("none (all windowed)",
                   integer("model.full_attention_interval", G::model, "Full attention every", " layers",
                           "With a sliding window, every n-th layer (the last of each run of n) still attends to the "
                           "whole sequence: 2 = alternating windowed and full layers (GPT-OSS). 0 = every layer uses "
                           "the window.",
                           1)),
        zero_means("none", integer("model.mtp_layers", G::model, "Multi-token prediction", " modules",
                                   "Multi-token prediction (DeepSeek-V3: 1): each module projects the hidden state and the next "
                                   "token's embedding into one more layer and one more pass through the LM head and loss, on the "
                                   "last pipeline stage. 0 = none.",
                                   1)),
        real("model.rope_mscale", G::model, "RoPE attention scale", "",
             "YaRN's scale on the rotary embedding's cos and sin (GPT-OSS: 0.1 ln 32 + 1 = 1.35). 1 = plain "
             "RoPE. Megatron-Core's fused RoPE kernel takes no scale, so any other value runs the unfused "
             "RoPE: six passes over the queries and keys instead of one.",
             4, 0.01),
    };
}

std::vector<FieldSpec> mla_fields() {
    return {
        zero_means("off", with_setter(set_kv_lora_rank,
                                      integer("model.kv_lora_rank", G::mla, "KV latent rank", "",
                                              "Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): keys and values are projected down "
                                              "to a shared latent of this rank and up again per head, which shrinks the KV cache. 0 = "
                                              "ordinary attention, where the other fields of this group are ignored; KV heads and head "
                                              "dimension are ignored with it. Setting it starts with DeepSeek's head proportions.",
                                              adaptive))),
        zero_means("direct", integer("model.q_lora_rank", G::mla, "Query latent rank", "",
                                     "Queries go through a latent of this rank (DeepSeek-V3: 1536); 0 = a direct projection.", adaptive)),
        integer("model.qk_nope_head_dim", G::mla, "Query/key head size", "",
                "Per-head query and key width without rotary embedding (DeepSeek-V3: 128).", 1),
        integer("model.qk_rope_head_dim", G::mla, "RoPE head size", "",
                "Width of the rotary part of each query head and of the one rotary key all heads share "
                "(DeepSeek-V3: 64). Query/key heads are the two sizes together.",
                1),
        integer("model.v_head_dim", G::mla, "Value head size", "",
                "Per-head value width (DeepSeek-V3: 128); at least 1 with multi-head latent attention.", 1),
    };
}

std::vector<FieldSpec> moe_fields() {
    return {
        zero_means(
            "none (dense)",
            with_setter(set_experts, integer("model.experts", G::moe, "Experts", "",
                                             "Routed experts of each mixture-of-experts layer; 0 = a dense model, where every layer has "
                                             "the MLP above and the other fields of this group are ignored. Setting it on a dense model "
                                             "starts with top-2 routing and experts as wide as the dense MLP.",
                                             1))),
        integer("model.experts_per_token", G::moe, "Experts per token", "",
                "Routed experts each token visits (top-k). Compute and all-to-all traffic per token grow "
                "with it; the weights do not.",
                1),
        integer("model.expert_ffn_hidden", G::moe, "Expert MLP width", "",
                "Width of one expert's MLP (per matrix for gated MLPs), often narrower than a dense MLP. "
                "Expert tensor parallelism must divide it.",
                adaptive),
        integer("model.shared_experts", G::moe, "Shared experts", "",
                "Experts every token visits besides the routed ones (DeepSeek-style); they need no "
                "all-to-all.",
                1),
        integer("model.dense_layers", G::moe, "Leading dense layers", "",
                "The first layers keep the dense MLP (DeepSeek-V3 has 3); the experts start after them.", 1),
        integer("model.moe_layer_interval", G::moe, "MoE layer interval", "",
                "Every n-th of the remaining layers is a mixture-of-experts layer, the others stay dense: "
                "1 = all of them, 2 = every other layer.",
                1),
        real("model.capacity_factor", G::moe, "Capacity factor", "",
             "Expert buffers hold this many times the balanced share of routed tokens; compute and "
             "all-to-all traffic are sized by the buffers. 1 = perfectly balanced (dropless); 1.25 is a "
             "common setting.",
             2, 0.05),
        zero_means("none", real("model.glu_clamp", G::moe, "Activation clamp", "",
                                "GPT-OSS's clamped quick-GELU GLU (limit 7), as Megatron-Core runs it: the clamp outside the "
                                "fused activation (three more passes over the up-projection output, forward and backward) "
                                "and a second host sync per MoE forward. 0 = no clamp; also 0 for a clamped SwiGLU, which "
                                "Megatron-Core fuses.",
                                1, 0.5)),
    };
}

std::vector<FieldSpec> dlrm_fields() {
    return {
        integer("dlrm.dense_features", G::dlrm, "Dense features", "",
                "Continuous input features per sample, the bottom MLP's input (Criteo: 13).", 1),
        choice("dlrm.interaction", G::dlrm, "Interaction",
               "How the bottom MLP's output meets the pooled embeddings: pairwise dot products of all the "
               "vectors (DLRM; every table as wide as the bottom MLP's output), or DCNv2 cross layers over "
               "their concatenation (the MLPerf DLRM-DCNv2 benchmark).",
               {"Dot products", "DCNv2 cross layers"}),
        integer("dlrm.cross_layers", G::dlrm, "Cross layers", "",
                "DCNv2 cross layers, each x0 × (U Vᵀ x + b) + x over the concatenated features "
                "(MLPerf: 3).",
                1),
        zero_means("full rank", integer("dlrm.cross_rank", G::dlrm, "Cross rank", "",
                                        "Rank of each cross layer's U Vᵀ (MLPerf: 512); 0 = a full-rank square matrix.", adaptive)),
        choice("dlrm.embedding_dtype", G::dlrm, "Row data type",
               "Data type of the embedding rows: FP32 (TorchRec's default) or 16-bit, which halves the "
               "tables' memory and lookup traffic.",
               {"FP32", "FP16", "BF16"}),
        choice("dlrm.table_optimizer", G::dlrm, "Table optimizer",
               "Optimizer fused into the embedding backward; its state per row: none (SGD), one fp32 "
               "(row-wise AdaGrad), one fp32 per column (AdaGrad) or two (Adam). The state lives with "
               "the rows unless the placement says otherwise.",
               {"SGD", "Row-wise AdaGrad", "AdaGrad", "Adam"}),
        real("dlrm.unique_rows_fraction", G::dlrm, "Distinct rows per lookup", "",
             "Distinct rows a batch updates per lookup: FBGEMM sorts the batch's indices and updates each "
             "row once. 1 = every lookup a different row; skewed (power-law) data repeats rows.",
             3, 0.05),
    };
}

std::vector<FieldSpec> embedding_fields() {
    return {
        choice("strategy.emb_sharding", G::embeddings, "Table sharding",
               "How the tables are split over the accelerators (TorchRec's sharding types): whole tables "
               "per accelerator (balanced greedily), every table's rows over all of them (partial sums "
               "reduce-scattered), or every table's columns over all of them (dp must divide the dim).",
               {"Table-wise", "Row-wise", "Column-wise"}),
        choice("strategy.emb_placement", G::embeddings, "Row placement",
               "Where the rows live: HBM; the expanded tier, read and written over its link (TorchRec's "
               "UVM); or the expanded tier with a hot-row cache in HBM (the cache's share and hit rate "
               "below). The last two need an expanded tier.",
               {"HBM", "Expanded tier", "Expanded tier, HBM cache"}),
        real("strategy.emb_cache_fraction", G::embeddings, "Cache share of rows", "",
             "With the HBM cache: the share of each accelerator's rows (and their optimizer state) the "
             "cache holds in HBM.",
             3, 0.01),
        real("strategy.emb_cache_hit_rate", G::embeddings, "Cache hit rate", "",
             "With the HBM cache: the share of lookups its rows serve. Missed rows are fetched over the "
             "expanded tier's link before the lookup and evicted rows written back, behind the rest of "
             "the iteration.",
             3, 0.01),
        choice("strategy.emb_state", G::embeddings, "Optimizer state",
               "Where the tables' optimizer state lives: with its rows (and in the cache with them), "
               "always in HBM, or always in the expanded tier.",
               {"With the rows", "HBM", "Expanded tier"}),
    };
}

std::vector<FieldSpec> training_fields() {
    return {
        integer("training.global_batch", G::training, "Global batch", " sequences",
                "Sequences per iteration over all data-parallel replicas. Must be a multiple of "
                "dp × microbatch; larger batches shrink the pipeline bubble.",
                adaptive),
        choice("training.precision", G::training, "Precision",
               "Number format of GEMMs and activations. FP8 runs at the FP8 tensor peak and needs a "
               "node that has one; MXFP8 uses 32-element block scaling (Blackwell). FP4 (NVFP4, 16-element "
               "blocks) runs the block's GEMMs at the FP4 peak; attention, master weights and optimizer "
               "stay in higher precision.",
               {"FP16", "BF16", "FP8", "MXFP8", "FP4"}),
        choice("training.optimizer", G::training, "Optimizer",
               "Adam keeps two fp32 moments per parameter; SGD needs less optimizer memory and a "
               "lighter step.",
               {"Adam", "SGD"}),
        choice("training.grad_reduce", G::training, "Gradient reduction",
               "Data type of the data-parallel gradient reduction; BF16 halves its traffic.", {"FP32", "BF16"}),
        choice("training.attention", G::training, "Attention kernel",
               "A fused (FlashAttention-style) kernel does not store the attention scores, saving "
               "activation memory and HBM traffic.",
               {"Unfused", "Fused (FlashAttention)"}),
        boolean("training.dropout", G::training, "Dropout",
                "Attention and hidden dropout; their masks cost activation memory and traffic."),
        boolean("training.cuda_graphs", G::training, "CUDA graphs",
                "The whole step runs as captured CUDA graphs: the host replays them instead of issuing "
                "every kernel, so the software's host time per op no longer slows small kernels, whatever "
                "the software's CUDA-graph scope says. Off = the software's scope (eager PyTorch: none)."),
    };
}

std::vector<FieldSpec> software_fields() {
    return {
        zero_means("none", real("software.host_op_us", G::software, "Host time per op", " µs",
                                "Host time the training framework needs to issue one op in eager mode (Python, autograd, "
                                "library dispatch): about 20 µs in eager PyTorch (measured). A pass cannot run faster than its "
                                "kernels are issued, so layers of many small kernels (narrow experts) become host-bound. "
                                "0 = the host always keeps ahead (a compiled or captured step).",
                                1, adaptive)),
        choice("software.grouped_gemm", G::software, "Expert GEMMs",
               "How the software runs an MoE layer's local experts: one GEMM launch per expert (Transformer "
               "Engine's grouped linear layer) or one grouped kernel over all of them (torch._grouped_mm, "
               "megablox, DeepGEMM). Many narrow experts issue many small kernels one by one.",
               {"One launch per expert", "One grouped kernel"}),
        boolean("software.moe_host_sync", G::software, "Dispatch waits for the host",
                "The MoE token dispatch copies the tokens per expert to the host for the all-to-all's split "
                "sizes, so the host waits for the queue to drain once per MoE forward. Off: the sizes stay "
                "on the device (a compiled step, static capacity)."),
        choice("software.fused_attention", G::software, "Attention kernel",
               "Which fused attention kernel the software calls: the hardware vendor's tuned one (cuDNN or "
               "FlashAttention-3 on Hopper and Blackwell, CK on ROCm, splash on TPU: the node's attention "
               "kernel) or FlashAttention-2 (the flash-attn package, PyTorch's SDPA flash backend), which the "
               "node prices on its own where it is slower.",
               {"Vendor's tuned kernel", "FlashAttention-2"}),
        choice("software.graph_scope", G::software, "CUDA-graph scope",
               "What the software captures as CUDA graphs, so that the host replays a graph instead of issuing "
               "each kernel: nothing (eager), the dense layers (Megatron-Core's Transformer Engine graphs over "
               "attention, the router and the dispatch preparation: an MoE layer's token dispatch, experts and "
               "combine stay eager, their shapes follow the routing) or the whole step (full-iteration graphs, a "
               "compiled XLA program). Training's CUDA graphs switch captures the whole step whatever this says.",
               {"None (eager)", "Dense layers", "Whole step"}),
        boolean("software.nvls", G::software, "All-reduce in the switches (NVLS)",
                "The collective library may all-reduce in the NVLink switches (NCCL's NVLS algorithm, its default "
                "where the fabric has it; NCCL_NVLS_ENABLE=0 turns it off, as NVIDIA's Megatron-Bridge recipes do). "
                "Takes effect where the node's in-switch all-reduce is above 0, inside one scale-up domain."),
        real("software.weight_bytes", G::software, "Stored weights", " B/param",
             "Bytes per parameter of the weights the software stores: 2 = 16-bit weights (Megatron-Core, "
             "DeepSpeed: the optimizer keeps an fp32 master copy), 4 = fp32 weights that are their own master "
             "copy and are cast to 16 bits layer by layer (FSDP, MaxText).",
             1, 1),
        boolean("software.master_weights", G::software, "FP32 master copy",
                "The optimizer keeps an fp32 master copy of the weights next to the stored 16-bit weights (4 bytes "
                "per parameter). Off where the stored weights are themselves fp32."),
        real("software.moment_bytes", G::software, "Optimizer moment", " B/param",
             "Bytes per parameter of each optimizer moment (Adam keeps two, SGD one): 4 in fp32, 2 in bf16 "
             "(DeepSeek-V3's optimizer).",
             1, 1),
        real("software.logits_bytes", G::software, "Loss memory per logit", " B",
             "Bytes per logit (one token's score for one vocabulary entry) the loss holds at its peak: the "
             "16-bit logits, an fp32 copy and the gradient as the software keeps them (6 in Megatron-Core's "
             "vocabulary-parallel cross entropy, 10 with PyTorch's cross_entropy over fp32 logits). 0 = a "
             "loss fused into the LM head in chunks.",
             1, 1),
        real("software.hbm_reserved_gib", G::software, "HBM reserved", " GiB",
             "HBM per accelerator the runtime keeps and training cannot use: the CUDA or HIP context, the "
             "collective library's buffers and workspaces (2 GiB for the PyTorch stacks), XLA:TPU's "
             "reservation (1.25 GiB). Must stay below the node's HBM capacity.",
             2, 0.25),
        real("software.hbm_allocator_margin", G::software, "Allocator margin", "",
             "Fraction of the HBM capacity the allocator holds but cannot hand out: a caching allocator's "
             "fragmentation (0.05 for PyTorch's), 0 for XLA's static buffer assignment. 0 to 0.5.",
             2, 0.01),
    };
}

std::vector<FieldSpec> strategy_fields() {
    return {
        integer("strategy.tp", G::strategy, "Tensor parallel (tp)", "",
                "Accelerators that split every layer's matrices. Must divide the heads, KV heads and "
                "MLP width; its collectives are fast while tp fits in the scale-up domain.",
                1),
        integer("strategy.pp", G::strategy, "Pipeline parallel (pp)", "",
                "Pipeline stages the layers are split into: less memory per accelerator, a larger "
                "pipeline bubble.",
                1),
        integer("strategy.dp", G::strategy, "Data parallel (dp)", "",
                "Model replicas, each taking a share of the global batch; their gradients are reduced "
                "every iteration.",
                1),
        integer("strategy.cp", G::strategy, "Context parallel (cp)", "",
                "Accelerators that split every sequence (ring attention): each holds 1/cp of the tokens' "
                "activations and passes key/value chunks around the ring while it computes attention. "
                "2 × cp must divide the sequence length.",
                1),
        integer("strategy.ep", G::strategy, "Expert parallel (ep)", "",
                "Accelerators the routed experts are spread over (MoE models only): fewer expert weights "
                "per accelerator, and tokens reach their experts by all-to-all. Must divide the experts; "
                "ep × etp must divide tp × cp × dp.",
                1),
        integer("strategy.etp", G::strategy, "Expert TP (etp)", "",
                "Expert tensor parallelism: accelerators that split each expert's matrices, like tp does "
                "for the dense layers. Must divide the expert MLP width.",
                1),
        integer("strategy.microbatch", G::strategy, "Microbatch size", "",
                "Sequences per microbatch. Smaller microbatches shrink the pipeline bubble but make "
                "GEMMs less efficient.",
                1),
        integer("strategy.interleave", G::strategy, "Interleaving", "",
                "Virtual pipeline stages per rank (interleaved schedule): a smaller bubble for more "
                "pipeline messages. Where pp × interleaving does not divide the layers, the first and last "
                "stage take fewer.",
                1),
        zero_means("automatic", integer("strategy.pipeline_first_layers", G::strategy, "First stage layers", "",
                                        "Layers of the first pipeline stage (with the embedding); the middle stages share the rest "
                                        "evenly. 0 = automatic: as even as possible, the first and last stage taking fewer where the "
                                        "layers do not divide. A multiple of the interleaving.",
                                        1)),
        zero_means("automatic", integer("strategy.pipeline_last_layers", G::strategy, "Last stage layers", "",
                                        "Layers of the last pipeline stage (with the LM head and the loss); 0 = automatic. A "
                                        "multiple of the interleaving.",
                                        1)),
        boolean("strategy.embedding_in_pipeline_split", G::strategy, "Embedding counts as a layer",
                "Count the embedding as one layer when splitting the layers over the stages, so that the "
                "first stage takes one layer less (Megatron-LM's account_for_embedding_in_pipeline_split)."),
        boolean("strategy.loss_in_pipeline_split", G::strategy, "Loss counts as a layer",
                "Count the LM head and the loss as one layer when splitting the layers, so that the last "
                "stage takes one layer less (account_for_loss_in_pipeline_split)."),
        choice("strategy.recompute", G::strategy, "Recompute",
               "Activation recomputation: selective recomputes the attention core, full recomputes "
               "each layer's forward pass during backward. Trades compute for activation memory.",
               {"None", "Selective", "Full"}),
        zero_means("every layer", integer("strategy.recompute_layers", G::strategy, "Recomputed layers", " per stage",
                                          "With full recomputation: how many layers of each virtual pipeline stage are recomputed; the "
                                          "others keep their activations (Megatron-LM's recompute_num_layers). 0 = every layer.",
                                          1)),
        boolean("strategy.sequence_parallel", G::strategy, "Sequence parallelism",
                "Split norms and dropout along the sequence across the tensor-parallel ranks, dividing "
                "their activation memory by tp. Needs tp to divide the sequence length."),
        choice("strategy.zero_stage", G::strategy, "ZeRO stage",
               "Shard optimizer states (1), also gradients (2), also weights (3) across the "
               "data-parallel ranks: less memory, more data-parallel traffic.",
               {"0 (off)", "1 (optimizer states)", "2 (+ gradients)", "3 (+ weights)"}),
        zero_means("whole DP group", integer("strategy.zero_shard", G::strategy, "ZeRO sharding group", "",
                                             "Accelerators a ZeRO/FSDP shard spans. 0 = the whole data-parallel group (dp × cp); a "
                                             "divisor g of dp × cp shards over g accelerators (within a node, say) and replicates over "
                                             "the rest (hybrid sharding, HSDP): more memory, less cross-node traffic.",
                                             1)),
        boolean("strategy.offload_optimizer", G::strategy, "Offload optimizer states",
                "Keep optimizer states in the expanded memory tier. Needs an expanded tier."),
        boolean("strategy.offload_weights", G::strategy, "Offload weights",
                "Keep weights in the expanded memory tier and fetch each layer's weights when needed. "
                "Needs an expanded tier."),
        boolean("strategy.offload_activations", G::strategy, "Offload activations",
                "Move stored activations to the expanded memory tier between forward and backward. "
                "Needs an expanded tier."),
        boolean("strategy.dp_overlap", G::strategy, "Overlap DP reduction",
                "Overlap the data-parallel gradient reduction with the backward pass; only what does "
                "not fit behind compute is exposed."),
        boolean("strategy.tp_overlap", G::strategy, "Overlap TP communication",
                "Overlap tensor-parallel collectives with the GEMMs that produce or consume them."),
        real("strategy.ep_overlap", G::strategy, "EP all-to-all overlap", "",
             "Fraction of the expert-parallel all-to-all hidden behind the expert GEMMs. 0 = sequential "
             "(dispatch, compute, combine one after the other); about 0.9 = fine-grained tile-level "
             "overlap as in Comet (Zhang et al., MLSys 2025); 1 = fully hidden.",
             2, 0.05),
        choice("strategy.ep_dispatch", G::strategy, "EP dispatch",
               "How token copies reach their experts. All-to-all (Megatron-Core's default dispatcher) "
               "sends every copy to its expert's rank; hierarchical (DeepEP, HybridEP) sends a token "
               "across the scale-out network once per remote node or rack holding any of its experts "
               "and fans it out there over the scale-up links.",
               {"All-to-all", "Hierarchical"}),
        boolean("strategy.pp_scatter_gather", G::strategy, "Pipeline scatter/gather",
                "Split each pipeline message across the tensor-parallel ranks' links and gather it on "
                "the next stage (Megatron-LM)."),
        boolean("strategy.pp_overlap", G::strategy, "Overlap pipeline transfers",
                "With interleaving, send and receive each chunk's activations while the next chunk "
                "computes (Megatron-Core's default); off, every pipeline exchange blocks. No effect "
                "without interleaving."),
    };
}

const std::vector<FieldSpec>& table() {
    static const std::vector<FieldSpec> fields = [] {
        std::vector<FieldSpec> all = node_fields();
        for (auto* part :
             {model_fields, mla_fields, moe_fields, dlrm_fields, training_fields, software_fields, strategy_fields, embedding_fields})
            for (FieldSpec& f : part()) all.push_back(std::move(f));
        return all;
    }();
    return fields;
}

constexpr std::array groups{
    G::node_compute, G::attention_kernel, G::expanded_memory, G::scale_up, G::scale_out, G::cluster, G::model, G::mla, G::moe,
    G::dlrm,         G::training,         G::software,        G::strategy, G::embeddings};

}  // namespace

std::span<const FieldSpec> all_fields() { return table(); }

std::span<const FieldGroup> all_groups() { return groups; }

QString group_title(FieldGroup g) {
    switch (g) {
        case G::node_compute:
            return tr("Node compute & HBM");
        case G::attention_kernel:
            return tr("Attention kernel");
        case G::expanded_memory:
            return tr("Expanded memory");
        case G::scale_up:
            return tr("Scale-up network");
        case G::scale_out:
            return tr("Scale-out network");
        case G::cluster:
            return tr("Cluster");
        case G::model:
            return tr("Model");
        case G::mla:
            return tr("Multi-head latent attention");
        case G::moe:
            return tr("Mixture of experts");
        case G::training:
            return tr("Training");
        case G::software:
            return tr("Software");
        case G::strategy:
            return tr("Strategy");
        case G::dlrm:
            return tr("Recommendation model (DLRM)");
        case G::embeddings:
            return tr("Embedding tables");
    }
    return {};
}

bool field_applies(const FieldSpec& f, const Config& c) {
    const std::string_view path(f.path);
    if (f.group == G::moe) return c.model.is_moe() || path == "model.experts";
    if (path == "software.grouped_gemm" || path == "software.moe_host_sync") return c.model.is_moe();
    if (path == "software.fused_attention") return c.training.attention == AttentionKernel::fused;
    if (path == "software.nvls") return switch_can_reduce(c.node);
    if (path.rfind("node.attention_flash2.", 0) == 0 && path != "node.attention_flash2.max_fraction")
        return c.node.attention_flash2.max_fraction > 0;
    if (f.group == G::mla) return c.model.is_mla() || path == "model.kv_lora_rank";
    if (path == "model.full_attention_interval") return c.model.sliding_window > 0;
    if (path == "strategy.recompute_layers") return c.strategy.recompute == Recompute::full;
    if (path == "strategy.emb_cache_fraction" || path == "strategy.emb_cache_hit_rate")
        return c.strategy.emb_placement == EmbeddingPlacement::cached;
    if (path == "dlrm.cross_layers" || path == "dlrm.cross_rank") return c.dlrm.interaction == DlrmInteraction::dcn;
    return true;
}

bool group_for_workload(FieldGroup g, Workload w) {
    if (g == G::mla || g == G::moe || g == G::attention_kernel) return w == Workload::transformer;
    if (g == G::dlrm || g == G::embeddings) return w == Workload::dlrm;
    return true;
}

bool field_for_workload(const FieldSpec& f, Workload w) {
    if (!group_for_workload(f.group, w)) return false;
    // The registry says which workloads a field means anything for (a DLRM has no transformer
    // shape, no model parallelism, no attention kernel or dropout).
    const FieldDesc* d = comet::find_field(f.path);
    return d == nullptr || d->for_workload(w);
}

const FieldSpec* find_field(const QString& path) {
    for (const FieldSpec& f : table())
        if (path == QLatin1String(f.path)) return &f;
    return nullptr;
}

const FieldRule* rule_for(const QString& path) {
    for (const FieldRule& r : field_rules())
        if (path == QLatin1String(r.path)) return &r;
    return nullptr;
}

QStringList fields_behind(Infeasible reason, const Config& c) {
    switch (reason) {
        case Infeasible::tp_heads:
        case Infeasible::tp_kv_heads:
        case Infeasible::tp_ffn:
            return {QStringLiteral("strategy.tp")};
        case Infeasible::sequence_parallel_seq:
            return {QStringLiteral("strategy.tp"), QStringLiteral("strategy.sequence_parallel")};
        case Infeasible::pp_layers: {
            QStringList out{QStringLiteral("strategy.pp"), QStringLiteral("strategy.interleave")};
            if (c.strategy.pipeline_first_layers > 0) out << QStringLiteral("strategy.pipeline_first_layers");
            if (c.strategy.pipeline_last_layers > 0) out << QStringLiteral("strategy.pipeline_last_layers");
            return out;
        }
        case Infeasible::batch_split:
            return {QStringLiteral("strategy.dp"), QStringLiteral("strategy.microbatch")};
        case Infeasible::too_many_accelerators:
            return {QStringLiteral("strategy.tp"), QStringLiteral("strategy.pp"), QStringLiteral("strategy.dp"),
                    QStringLiteral("strategy.cp")};
        case Infeasible::interleave_needs_pp:
        case Infeasible::interleave_microbatches:
            return {QStringLiteral("strategy.interleave")};
        case Infeasible::fp8_unsupported:
        case Infeasible::fp4_unsupported:
            return {QStringLiteral("training.precision")};
        case Infeasible::cp_seq:
            return c.strategy.sequence_parallel ? QStringList{QStringLiteral("strategy.cp"), QStringLiteral("strategy.tp"),
                                                              QStringLiteral("strategy.sequence_parallel")}
                                                : QStringList{QStringLiteral("strategy.cp")};
        case Infeasible::ep_dense_model:
        case Infeasible::ep_experts:
            return {QStringLiteral("strategy.ep"), QStringLiteral("model.experts")};
        case Infeasible::ep_group:
            return {QStringLiteral("strategy.ep"), QStringLiteral("strategy.etp")};
        case Infeasible::etp_ffn:
            return {QStringLiteral("strategy.etp"), QStringLiteral("model.expert_ffn_hidden")};
        case Infeasible::zero_shard_group:
            return {QStringLiteral("strategy.zero_shard")};
        case Infeasible::offload_without_tier: {
            QStringList out;
            if (c.strategy.offload_optimizer) out << QStringLiteral("strategy.offload_optimizer");
            if (c.strategy.offload_weights) out << QStringLiteral("strategy.offload_weights");
            if (c.strategy.offload_activations) out << QStringLiteral("strategy.offload_activations");
            return out;
        }
        default:
            return {};
    }
}

}  // namespace comet::ui
