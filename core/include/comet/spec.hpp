#pragma once
// Plain input structs of the model. Units live in the field names; convert with units.hpp.
// These structs hold no strings and no heap memory, so a configuration can be copied and
// evaluated millions of times per second. Names and provenance live in Scenario (scenario.hpp).

#include <array>
#include <cstdint>

namespace comet {

// fp8: FP8 GEMMs with per-tensor (current or delayed) scaling (Transformer Engine's FP8-CS/DS);
// mxfp8: FP8 GEMMs with 32-element block scaling (OCP MX, Blackwell tensor cores). Both keep
// master weights, gradients and optimizer states in higher precision.
// fp4: 4-bit (E2M1) GEMM operands with NVFP4 scaling (16-element blocks with an E4M3 scale
// and a per-tensor FP32 scale, Transformer Engine's NVFP4BlockScaling, as NVIDIA's FP4
// training recipes run it; MXFP4's 32-element power-of-two blocks cost the same within the
// model's resolution); master weights, gradients, optimizer states and attention stay as with
// FP8.
enum class Precision : std::uint8_t { fp16, bf16, fp8, mxfp8, fp4 };
[[nodiscard]] constexpr bool is_fp8(Precision p) noexcept { return p == Precision::fp8 || p == Precision::mxfp8; }
[[nodiscard]] constexpr bool is_fp4(Precision p) noexcept { return p == Precision::fp4; }
// GEMM operands quantized below 16 bits (FP8 or FP4), with their cast kernels and weight copies.
[[nodiscard]] constexpr bool is_quantized(Precision p) noexcept { return is_fp8(p) || is_fp4(p); }
// Bytes per element of a quantized GEMM operand, scales included: 1 for FP8 (per-tensor
// scales; MXFP8 adds a byte per 32 elements, below the model's resolution), 0.5 + 1/16 for
// NVFP4's 16-element blocks; 2 for 16-bit operands.
[[nodiscard]] constexpr double gemm_operand_bytes(Precision p) noexcept { return is_fp4(p) ? 0.5 + 1.0 / 16.0 : is_fp8(p) ? 1.0 : 2.0; }
enum class Recompute : std::uint8_t { none, selective, full };
enum class AttentionKernel : std::uint8_t { unfused, fused };  // fused = FlashAttention-style
enum class Optimizer : std::uint8_t { adam, sgd };
enum class GradDtype : std::uint8_t { fp32, bf16 };
enum class ExpandedAttach : std::uint8_t { per_accelerator, per_node, pooled };
// How MoE token copies reach their experts: Megatron-Core's all-to-all dispatcher sends every
// copy to its expert's rank; a hierarchical dispatcher (DeepEP's internode kernels, NVIDIA's
// HybridEP) sends a token across the scale-out network once per remote scale-up domain that
// holds any of its experts and fans it out inside the domain.
enum class EpDispatch : std::uint8_t { all_to_all, hierarchical };

// What a configuration trains: a decoder-only transformer (ModelSpec) or a DLRM-style
// recommendation model (DlrmSpec). The other spec is ignored.
enum class Workload : std::uint8_t { transformer, dlrm };

// A decoder-only transformer.
struct ModelSpec {
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kv_heads = 0;        // == heads for multi-head attention; fewer for GQA/MQA
    int head_dim = 0;        // usually hidden / heads
    int ffn_hidden = 0;      // width of the MLP (per matrix for gated MLPs)
    bool gated_mlp = false;  // SwiGLU-style MLP with three matrices
    int seq_len = 0;
    int vocab = 0;
    bool tied_embeddings = true;
    bool bias = true;                         // biases in linear layers and norms (GPT-2/3); false for Llama-style
    bool learned_position_embeddings = true;  // GPT-style position table; false for RoPE

    // Mixture of experts. experts == 0: a dense model (every layer has the MLP above, and the
    // fields below are ignored). Otherwise the first `dense_layers` layers keep the dense MLP,
    // and of the remaining layers every `moe_layer_interval`-th (the last of each run of that
    // many) replaces it by a router, `experts` routed expert MLPs of width `expert_ffn_hidden`
    // of which each token visits `experts_per_token`, and `shared_experts` always-active ones.
    int experts = 0;
    int experts_per_token = 0;  // top-k
    int expert_ffn_hidden = 0;  // per matrix for gated MLPs, like ffn_hidden
    int shared_experts = 0;
    int dense_layers = 0;
    int moe_layer_interval = 1;
    // Expert buffers hold capacity_factor x the balanced share of routed tokens; compute and
    // all-to-all traffic are sized by the buffers (1 = perfectly balanced, dropless).
    double capacity_factor = 1.0;

    // Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): kv_lora_rank > 0. Keys and values
    // are projected down to a shared latent of kv_lora_rank (plus one RoPE key of
    // qk_rope_head_dim shared by all heads) and up again per head; queries go through a
    // q_lora_rank latent (0 = a direct projection). Query/key heads are qk_nope_head_dim +
    // qk_rope_head_dim wide, value heads v_head_dim; `head_dim` and `kv_heads` are then unused
    // (every head has its own keys and values).
    int q_lora_rank = 0;
    int kv_lora_rank = 0;
    int qk_nope_head_dim = 0;
    int qk_rope_head_dim = 0;
    int v_head_dim = 0;

    // Sliding-window attention: with sliding_window > 0, a layer attends to at most that many
    // preceding tokens, except every `full_attention_interval`-th layer (the last of each run
    // of that many), which attends to the whole sequence; 0 = every layer uses the window.
    // GPT-OSS alternates (window 128, interval 2).
    int sliding_window = 0;
    int full_attention_interval = 0;

    // Multi-token prediction (DeepSeek-V3, GLM-4.5): `mtp_layers` extra modules after the last
    // layer, each a projection of [hidden; embedding of the next token] (2h -> h) into one more
    // transformer layer of the model's last kind and one more pass through the (shared) LM head
    // and loss. Megatron-LM places them on the last pipeline stage. 0 = none.
    int mtp_layers = 0;

    // Rotary position embeddings (every model without learned positions; MLA has its own):
    // the attention scale YaRN multiplies cos and sin by (HF rope_scaling: mscale / mscale_all_dim,
    // or 0.1 ln(factor) + 1 when neither is given). 1 = plain RoPE. Megatron-Core's fused RoPE
    // kernel takes no scale: any other value runs the unfused one (docs/model.md, "Element-wise
    // work Megatron-Core leaves unfused").
    double rope_mscale = 1.0;
    // Clamp on a gated activation's inputs (GPT-OSS's swiglu_limit, 7: the gate from above, the
    // linear half both ways), priced as Megatron-Core runs GPT-OSS's quick-GELU GLU: the clamp
    // outside the fused activation and a second host sync; 0 = none (and for a clamped SwiGLU,
    // which Megatron-Core fuses).
    double glu_clamp = 0.0;

    [[nodiscard]] constexpr bool is_moe() const noexcept { return experts > 0; }
    [[nodiscard]] constexpr bool is_mla() const noexcept { return kv_lora_rank > 0; }
    bool operator==(const ModelSpec&) const = default;
};

// DLRM (Naumov et al. 2019, arXiv 1906.00091; DCNv2, Wang et al. 2021, arXiv 2008.13535): dense
// features through a bottom MLP, categorical features through embedding tables (each sample
// looks up `pooling` rows per table and sums them), an interaction of the bottom MLP's output
// with the pooled embeddings (pairwise dot products, or DCNv2 cross layers), and a top MLP.
enum class DlrmInteraction : std::uint8_t { dot, dcn };
// Data type of the embedding rows (and of their gradients' accumulation).
enum class EmbeddingDtype : std::uint8_t { fp32, fp16, bf16 };
[[nodiscard]] constexpr double embedding_dtype_bytes(EmbeddingDtype d) noexcept { return d == EmbeddingDtype::fp32 ? 4.0 : 2.0; }
// The tables' optimizer, fused into the embedding backward (FBGEMM's TBE): its state per row of
// `dim` elements is 0 (SGD), one fp32 (row-wise AdaGrad), dim fp32 (AdaGrad) or 2 dim fp32 (Adam).
enum class EmbeddingOptimizer : std::uint8_t { sgd, rowwise_adagrad, adagrad, adam };
[[nodiscard]] constexpr double embedding_state_bytes_per_row(EmbeddingOptimizer o, double dim) noexcept {
    return o == EmbeddingOptimizer::rowwise_adagrad ? 4.0
           : o == EmbeddingOptimizer::adagrad       ? 4.0 * dim
           : o == EmbeddingOptimizer::adam          ? 8.0 * dim
                                                    : 0.0;
}

// `count` identical tables of `rows` rows of `dim` elements; a sample looks up `pooling` rows of
// each (the multi-hot size; 1 = one-hot) and sums them.
struct EmbeddingTableGroup {
    int count = 0;
    double rows = 0;
    int dim = 0;
    double pooling = 1;
    bool operator==(const EmbeddingTableGroup&) const = default;
};

struct DlrmSpec {
    static constexpr int max_table_groups = 32;
    static constexpr int max_mlp_layers = 8;
    std::array<EmbeddingTableGroup, max_table_groups> tables{};
    int table_groups = 0;  // entries of `tables` in use
    int dense_features = 0;
    // Layer widths; the bottom MLP starts from dense_features, the top MLP from the
    // interaction's output and ends with the logit (a last width of 1).
    std::array<int, max_mlp_layers> bottom_mlp{};
    int bottom_layers = 0;
    std::array<int, max_mlp_layers> top_mlp{};
    int top_layers = 0;
    DlrmInteraction interaction = DlrmInteraction::dot;
    // DCNv2: cross layers over the concatenated features, each x_{l+1} = x0 * (U (V^T x_l) + b) + x_l
    // with U, V of width x rank (0 = a full-rank width x width matrix).
    int cross_layers = 0;
    int cross_rank = 0;
    EmbeddingDtype embedding_dtype = EmbeddingDtype::fp32;
    EmbeddingOptimizer table_optimizer = EmbeddingOptimizer::rowwise_adagrad;
    // Distinct rows a batch touches per lookup (FBGEMM sorts the indices and updates each distinct
    // row once): 1 = every lookup a different row; skewed (power-law) data repeats rows.
    double unique_rows_fraction = 1.0;

    bool operator==(const DlrmSpec&) const = default;
};

// Achievable throughput of a GEMM on this accelerator (docs/model.md, "GEMM time"). A kernel
// reaches at most `max_fraction` of the datasheet peak at the clock it sustains under load; each
// output tile pays a fixed fill and write-back equivalent to `tile_overhead_k` steps of its inner
// (K) loop. With `sms` > 0 the output tiles (128x128, 128x256 or 256x128, the fastest for the
// shape) run in waves over the SMs and the inner loop may be split up to `max_split_k` ways (each
// split at least `min_split_k_depth` deep): the per-op model of core/src/model/op_rates.cpp, fitted on
// measured per-op tables. With `sms` = 0 a GEMM is one continuous stream and runs at
// max_fraction * K / (K + tile_overhead_k). Every kernel pays `launch_overhead_us`, and no kernel
// beats the HBM traffic it needs (roofline).
struct GemmModel {
    double max_fraction = 0.8;
    double tile_overhead_k = 128.0;
    double launch_overhead_us = 4.0;
    // Large FP8 GEMMs reach a lower fraction of the (twice as high) FP8 peak: the same power
    // cap and the same operand traffic per FLOP at half the bytes. 0 = max_fraction.
    double fp8_max_fraction = 0.0;
    // Large FP4 GEMMs, likewise, of the FP4 peak. 0 = fp8_max_fraction (then max_fraction).
    double fp4_max_fraction = 0.0;
    // Tile fill of the FP8 (and FP4) kernels, in K steps; 0 = tile_overhead_k.
    double fp8_tile_overhead_k = 0.0;
    int sms = 0;                      // streaming multiprocessors (compute units) the tiles run on; 0 = no waves
    int max_split_k = 1;              // most ways a GEMM's inner loop is split (1 = never)
    double min_split_k_depth = 64.0;  // K steps per split at least

    bool operator==(const GemmModel&) const = default;
};

// Fused attention (FlashAttention-class kernels). Per score a kernel does 4 x head_dim
// tensor FLOPs in forward but also an exponential and a few vector operations on units far
// slower than the tensor cores; what the kernel cannot overlap costs as much as
// `softmax_head_dim` extra head-dimension steps. A kernel over heads of size d therefore runs
// at max_fraction x d / (d + softmax_head_dim) of the 16-bit tensor peak in forward, and
// `backward_efficiency` of that in backward (atomic dQ accumulation, five products per tile).
// Each query row pays a fixed cost (loading Q, writing O and the statistics, the pipeline's
// fill) of `fill_keys` key positions; a negative value = node.gemm.tile_overhead_k (files
// written before the attention had its own fill).
struct AttentionModel {
    double max_fraction = 0.75;
    double softmax_head_dim = 32.0;
    double backward_efficiency = 0.8;
    double fill_keys = -1.0;

    bool operator==(const AttentionModel&) const = default;
};

// Second memory tier: host DDR behind the CPU, CXL expanders, or a pooled memory box.
struct ExpandedMemory {
    double capacity_gib = 0.0;    // per attachment point; 0 = no expanded tier
    double bandwidth_gbps = 0.0;  // per attachment point, per direction
    double latency_us = 1.0;
    ExpandedAttach attach = ExpandedAttach::per_node;
    int pool_nodes = 1;  // for `pooled`: how many nodes share one pool

    bool operator==(const ExpandedMemory&) const = default;
};

struct ScaleUpNetwork {
    int domain_size = 8;          // accelerators that share the scale-up fabric (NVLink domain)
    double bandwidth_gbps = 0.0;  // per accelerator, per direction
    double latency_us = 5.0;
    double efficiency = 0.8;  // achievable fraction of link bandwidth for large collectives
    // The switches reduce and multicast (NVLink SHARP, NCCL's NVLS algorithm): an all-reduce
    // inside the domain reaches this fraction of `bandwidth_gbps` as algorithm bandwidth (buffer
    // bytes per second), measured with nccl-tests; 0 = the fabric cannot reduce in the switch.
    // Used only where the software lets the collective library do it (SoftwareSpec::nvls).
    double switch_allreduce_fraction = 0.0;

    bool operator==(const ScaleUpNetwork&) const = default;
};

struct ScaleOutNetwork {
    double bandwidth_gbps = 0.0;  // per accelerator, per direction
    double latency_us = 10.0;
    double efficiency = 0.9;
    // A leaf-spine fabric: `leaf_domains` scale-up domains (nodes) share a leaf (or rail group)
    // at full bandwidth; traffic between leaves crosses the spine, whose uplinks carry
    // 1 / `oversubscription` of the leaf's downlink bandwidth, with `spine_latency_us` more per
    // message. leaf_domains 0 = one non-blocking tier (docs/model.md, "Network tiers").
    int leaf_domains = 0;
    double oversubscription = 1.0;
    double spine_latency_us = 0.0;
    // Rail-only (Wang et al. 2023, arXiv 2307.12169): an accelerator's NIC reaches only the
    // accelerators of the same local rank (its rail) in other domains; traffic to another rail
    // is first forwarded inside the scale-up domain (docs/model.md, "Network tiers").
    bool rail_only = false;

    bool operator==(const ScaleOutNetwork&) const = default;
};

struct NodeSpec {
    int accelerators = 8;
    double matrix_fp16_tflops = 0.0;  // dense, fp16/bf16 tensor cores
    double matrix_fp8_tflops = 0.0;   // dense fp8; 0 = no fp8 support
    double matrix_fp4_tflops = 0.0;   // dense fp4 (NVFP4/MXFP4); 0 = no fp4 support
    double vector_tflops = 0.0;       // non-tensor 16-bit throughput (element-wise work)
    GemmModel gemm;
    AttentionModel attention;  // the vendor's tuned kernel (cuDNN / FlashAttention-3 on Hopper and Blackwell, ...)
    // FlashAttention-2's portable kernel where it runs slower than the vendor's (Hopper: no
    // wgmma/TMA path); max_fraction 0 = the node gives no separate rate and it runs as
    // `attention` (Ampere, where FlashAttention-2 is the tuned kernel; hardware not measured).
    AttentionModel attention_flash2{0.0, 0.0, 0.0, -1.0};
    double hbm_capacity_gib = 0.0;
    double hbm_bandwidth_gbps = 0.0;
    double hbm_efficiency = 0.9;  // achievable fraction of HBM bandwidth for streaming kernels
    // What the runtime keeps of the HBM and what its allocator cannot hand out are the
    // software's (SoftwareSpec::hbm_reserved_gib, SoftwareSpec::hbm_allocator_margin).
    ExpandedMemory expanded;
    ScaleUpNetwork scale_up;
    ScaleOutNetwork scale_out;
    double power_kw = 0.0;  // whole node at load (accelerators, CPUs, NICs, fans); 0 = unknown

    bool operator==(const NodeSpec&) const = default;
};

struct ClusterSpec {
    int nodes = 1;

    bool operator==(const ClusterSpec&) const = default;
};

struct TrainingSpec {
    long long global_batch = 0;  // sequences per iteration
    Precision precision = Precision::bf16;
    Optimizer optimizer = Optimizer::adam;
    GradDtype grad_reduce = GradDtype::fp32;  // data-type of the data-parallel gradient reduction
    AttentionKernel attention = AttentionKernel::unfused;
    bool dropout = true;  // attention and hidden dropout (masks cost memory and traffic)
    // The step runs as captured CUDA graphs (Megatron-Core's full-iteration graphs, HugeCTR,
    // NVIDIA's MLPerf submissions): the host replays them instead of issuing each kernel, so
    // SoftwareSpec::host_op_us stops bounding the passes (the accelerator still pays each kernel's
    // launch). A captured step cannot wait for the host: a dropless MoE's routing sync rules
    // it out (check.cpp). false = eager PyTorch, every kernel issued by the host.
    bool cuda_graphs = false;

    bool operator==(const TrainingSpec&) const = default;
};

enum class EmbeddingSharding : std::uint8_t { table_wise, row_wise, column_wise };
enum class EmbeddingPlacement : std::uint8_t { hbm, expanded, cached };
enum class EmbeddingStateTier : std::uint8_t { with_rows, hbm, expanded };

struct Strategy {
    int tp = 1;
    int pp = 1;
    int dp = 1;
    int microbatch = 1;  // sequences per microbatch
    int interleave = 1;  // virtual pipeline stages per rank
    Recompute recompute = Recompute::none;
    bool sequence_parallel = false;
    int zero_stage = 0;  // 0..3 (3 = FSDP)
    bool offload_optimizer = false;
    bool offload_weights = false;
    bool offload_activations = false;
    bool dp_overlap = true;         // overlap data-parallel gradient reduction with backward
    bool tp_overlap = false;        // overlap tensor-parallel collectives with GEMMs
    bool pp_scatter_gather = true;  // split pipeline messages across the TP ranks' links
    // With interleaving (interleave > 1), run each chunk's pipeline sends and receives behind the
    // rank's next chunk (Megatron-Core's overlap_p2p_comm); false = every exchange blocks, as in
    // Megatron-LM of 2021. No effect without interleaving (1F1B exchanges block).
    bool pp_overlap = true;

    // Context parallelism: each sequence is split over `cp` ranks; attention runs as a ring
    // that passes key/value chunks around the group while it computes (ring attention).
    int cp = 1;
    // Expert parallelism (MoE models only): the routed experts are split over `ep` ranks and
    // each expert's matrices over `etp` ranks; tokens reach their experts by all-to-all.
    // ep x etp must divide tp x cp x dp (Megatron-Core's "parallel folding").
    int ep = 1;
    int etp = 1;
    // Fraction of the EP all-to-all that hides behind the expert GEMMs: 0 = sequential
    // (coarse-grained), about 0.9 = tile-level fine-grained overlap (Zhang et al., MLSys 2025).
    double ep_overlap = 0.0;
    EpDispatch ep_dispatch = EpDispatch::all_to_all;
    // ZeRO/FSDP sharding group: 0 = shard over the whole data-parallel group (dp x cp ranks);
    // a divisor g of dp x cp = hierarchical sharding (HSDP): states sharded over g ranks and
    // replicated over dp x cp / g groups.
    int zero_shard = 0;

    // Pipeline stage layout (Megatron-LM's options). 0 = automatic: the layers are spread as
    // evenly as possible over the pp x interleave virtual stages, and where they do not divide
    // the first and the last virtual stage (which hold the embedding and the loss) take fewer.
    // Otherwise the first / last pipeline stage holds exactly that many layers and the middle
    // stages share the rest evenly (num_layers_in_first/last_pipeline_stage).
    int pipeline_first_layers = 0;
    int pipeline_last_layers = 0;
    // Count the embedding / the LM head and loss as one layer each when splitting the layers
    // (account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split).
    bool embedding_in_pipeline_split = false;
    bool loss_in_pipeline_split = false;
    // With recompute == full: how many layers of each virtual stage are recomputed (Megatron-
    // LM's recompute_num_layers with the block method); the others keep their activations.
    // 0 = every layer.
    int recompute_layers = 0;

    // DLRM only (Config::workload == dlrm): the MLPs are data-parallel over all `dp` ranks and
    // the embedding tables are split over them (TorchRec's sharding types):
    // table_wise: whole tables per rank; row_wise: every table's rows split over all ranks;
    // column_wise: every table's columns split over all ranks (dp divides every table's dim).
    EmbeddingSharding emb_sharding = EmbeddingSharding::table_wise;
    // Where the rows live: HBM; the expanded tier (read and written over its link, as TorchRec's
    // UVM placement); or the expanded tier with a hot-row cache in HBM holding
    // `emb_cache_fraction` of each shard's rows and serving `emb_cache_hit_rate` of the lookups
    // (missed rows are fetched into it before the lookup and evicted rows written back).
    EmbeddingPlacement emb_placement = EmbeddingPlacement::hbm;
    double emb_cache_fraction = 0.1;
    double emb_cache_hit_rate = 0.9;
    // Where the tables' optimizer state lives: with its rows (and in the cache with them), or
    // always in HBM, or always in the expanded tier.
    EmbeddingStateTier emb_state = EmbeddingStateTier::with_rows;

    bool operator==(const Strategy&) const = default;
};

// Prices and power. The GPU price is either an hourly price (cloud) or a purchase price
// amortised over the lifetime at 100 % utilisation; when both are set, the hourly price wins.
// Energy cost (NodeSpec::power_kw x PUE x price per kWh) is always added on top of the GPU
// price (set price_per_kwh_usd = 0 when the hourly price already includes power).
struct CostInputs {
    double price_per_gpu_hour_usd = 0;
    double purchase_price_per_gpu_usd = 0;
    double lifetime_years = 4;
    double pue = 1.2;  // data-centre power usage effectiveness, >= 1
    double price_per_kwh_usd = 0.10;
    double tokens_to_train = 0;  // 0 = no training-run totals
};

// Everything needed to evaluate one training configuration.
// How a grouped expert layer runs its local experts' GEMMs.
enum class GroupedGemm : std::uint8_t {
    per_expert,  // one GEMM launch per local expert (Transformer Engine's GroupedLinear)
    one_kernel,  // one grouped kernel over every local expert (torch._grouped_mm, megablox, DeepGEMM)
};

// Which fused attention kernel the software calls (when training.attention is fused).
enum class FusedAttention : std::uint8_t {
    vendor,  // the hardware vendor's tuned kernel: node.attention (cuDNN, FlashAttention-3, CK, splash)
    flash2,  // FlashAttention-2 (the flash-attn package, PyTorch SDPA's flash backend): node.attention_flash2
};

// What of a step the software captures as CUDA graphs (the host replays a graph instead of
// issuing each kernel).
enum class GraphScope : std::uint8_t {
    none,   // eager: the host issues every kernel
    dense,  // every op whose shapes do not follow the routing (Megatron-Core's Transformer Engine
            // graphs over attention, the router and the dispatch preprocessing); an MoE layer's
            // token dispatch, experts and combine stay eager
    full,   // the whole step (Megatron-Core's full_iteration graphs, a compiled XLA program)
};

// What the training software decides, apart from the strategy: the host's time to issue each
// framework op, how an MoE layer's expert GEMMs are launched, and whether its token dispatch
// waits for the host. Presets in presets/software/ (docs/model.md, "Software"); each value
// cites its source there. Hardware lives in NodeSpec; the software runs on it.
struct SoftwareSpec {
    // Host time to issue one framework op (Python, autograd, library dispatch) in eager mode.
    // A pass cannot run faster than its kernels are issued; layers of many small kernels (narrow
    // experts) become host-bound. 0 = the host always keeps ahead (a compiled or captured step).
    double host_op_us = 0.0;
    GroupedGemm grouped_gemm = GroupedGemm::per_expert;
    // The MoE dispatcher copies the tokens per expert to the host before the all-to-all (the
    // all-to-all's split sizes are host integers): the host waits for the queue to drain once
    // per MoE forward. false = the dispatch sizes stay on the device (static capacity, DeepEP's
    // low-latency kernels, a compiled step).
    bool moe_host_sync = true;
    FusedAttention fused_attention = FusedAttention::vendor;
    // What the software captures as CUDA graphs. `full` is the same as TrainingSpec::cuda_graphs;
    // `dense` leaves the host issue time of the routed part of each MoE layer.
    GraphScope graph_scope = GraphScope::none;
    // The collective library may all-reduce in the NVLink switches (NCCL's NVLS algorithm, on by
    // default where the fabric has it; NCCL_NVLS_ENABLE=0 turns it off). It takes effect on a
    // node whose scale_up.switch_allreduce_fraction is above 0, inside one scale-up domain.
    bool nvls = false;
    // The memory layout (docs/model.md, "Memory as the software lays it out"). The defaults are
    // Megatron-Core's: 16-bit weights, an fp32 master copy and fp32 Adam moments in the
    // distributed optimizer, the vocabulary-parallel cross entropy over an fp32 copy of the logits.
    double weight_bytes = 2.0;   // bytes per stored parameter: 2 = 16-bit weights, 4 = fp32 weights
    bool master_weights = true;  // an fp32 master copy of the weights among the optimizer's states
    double moment_bytes = 4.0;   // bytes per optimizer moment and parameter (Adam keeps two, SGD one)
    // Bytes per logit (one token's score for one vocabulary entry on a rank) that the loss holds
    // at its peak: the logits, their higher-precision copy and their gradient as the software
    // keeps them; 0 = a loss fused into the LM head in chunks that never holds the logits.
    double logits_bytes = 6.0;
    // HBM the runtime keeps for itself on each accelerator: the CUDA/HIP context, the collective
    // library's buffers, workspaces; XLA:TPU's reservation. Not counted as the model's.
    double hbm_reserved_gib = 2.0;
    // Share of the HBM capacity the allocator holds but cannot hand out: a caching allocator's
    // fragmentation (freed blocks of the wrong size, rounding); 0 = a static buffer assignment
    // (XLA) that uses every byte it plans. docs/model.md, "Memory".
    double hbm_allocator_margin = 0.05;

    bool operator==(const SoftwareSpec&) const = default;
};

// The whole step runs as CUDA graphs: the training switch, or software that captures it all.
// The host then issues nothing per op (compute_rates()) and cannot be waited for (check.cpp).
[[nodiscard]] inline bool captures_whole_step(const TrainingSpec& training, const SoftwareSpec& software) noexcept {
    return training.cuda_graphs || software.graph_scope == GraphScope::full;
}

// The node's scale-up switches can reduce an all-reduce (NVLink SHARP), and the software lets
// the collective library do it (NCCL's NVLS): collectives.cpp prices it, the report and the
// software changes name it, the forms offer the switch where the fabric can.
[[nodiscard]] inline bool switch_can_reduce(const NodeSpec& node) noexcept { return node.scale_up.switch_allreduce_fraction > 0; }
[[nodiscard]] inline bool uses_nvls(const NodeSpec& node, const SoftwareSpec& software) noexcept {
    return software.nvls && switch_can_reduce(node);
}

struct Config {
    Workload workload = Workload::transformer;
    DlrmSpec dlrm;    // the DLRM's shape when workload == dlrm
    ModelSpec model;  // the transformer's shape when workload == transformer
    NodeSpec node;
    ClusterSpec cluster;
    TrainingSpec training;
    SoftwareSpec software;
    Strategy strategy;

    bool operator==(const Config&) const = default;
};

}  // namespace comet
