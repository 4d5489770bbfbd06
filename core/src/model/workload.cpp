#include "comet/workload.hpp"

#include <algorithm>
#include <cmath>

namespace comet {
namespace {

constexpr double activation_bytes = 2.0;  // 16-bit activations
constexpr double fp32_bytes = 4.0;
constexpr double mask_bytes = 1.0;  // dropout masks are stored as bytes

// A GEMM C[M,N] = A[M,K] * B[K,N], repeated `batch` times, with `in` bytes per operand
// element (2 for 16-bit, 1 for FP8, 0.5625 for NVFP4) and 16-bit outputs. Backward is two GEMMs of the same
// size (input gradient and weight gradient); a weight gradient accumulates into an fp32
// main-gradient buffer when `weight` is set, one K x N buffer per repetition (a grouped GEMM's
// `batch` local experts each have their own weights: read and write of every expert's buffer).
Op gemm(double batch, double m, double n, double k, bool weight, double in = activation_bytes) noexcept {
    const double e = activation_bytes;
    Op op;
    op.kind = OpKind::gemm;
    const double flops = 2.0 * batch * m * n * k;
    op.fwd = {flops, batch * (in * (m * k + k * n) + e * m * n), 1.0};
    const double dgrad_bytes = batch * (in * (m * n + n * k) + e * m * k);
    const double wgrad_bytes =
        weight ? batch * (in * (m * k + m * n) + 2.0 * fp32_bytes * k * n) : batch * (in * (m * k + m * n) + e * k * n);
    // Input gradient: inner dimension n; weight gradient: inner dimension m.
    op.bwd = {2.0 * flops, dgrad_bytes + wgrad_bytes, 2.0};
    op.fwd.gemms[0] = {batch, m, n, k};
    op.bwd.gemms[0] = {batch, m, k, n};  // input gradient dX[m,k] = dY[m,n] W
    op.bwd.gemms[1] = {batch, k, n, m};  // weight gradient dW[k,n] = X^T dY over the m rows
    return op;
}

// The batch of a GEMM op issued as `launches` kernels per product (Transformer Engine's grouped
// linear layer: one per local expert) instead of one.
void set_launches(Op& op, double launches) noexcept {
    op.fwd.kernels = launches;
    op.bwd.kernels = 2.0 * launches;
    for (PassCost* pass : {&op.fwd, &op.bwd})
        for (GemmDims& g : pass->gemms)
            if (g.batch > 0) g.kernels = launches;
}

// An element-wise kernel over `elements` values: bytes per element read+written in forward
// and backward, and a few vector FLOPs per element.
Op elementwise(double elements, double fwd_bytes_per_elem, double bwd_bytes_per_elem, double flops_per_elem) noexcept {
    Op op;
    op.kind = OpKind::elementwise;
    op.fwd = {flops_per_elem * elements, fwd_bytes_per_elem * elements, 1.0};
    op.bwd = {1.5 * flops_per_elem * elements, bwd_bytes_per_elem * elements, 1.0};
    return op;
}

Op norm(double tokens, double hidden) noexcept {
    const double e = activation_bytes;
    return elementwise(tokens * hidden, 2.0 * e, 3.0 * e, 8.0);
}

Op bias_dropout_add(double tokens, double hidden, bool dropout) noexcept {
    const double e = activation_bytes;
    const double m = dropout ? mask_bytes : 0.0;
    return elementwise(tokens * hidden, 3.0 * e + m, 2.0 * e + m, 4.0);
}

// Rotary embeddings on this rank's queries and keys (`elements` values in all), as
// Megatron-Core applies them to each of the two tensors. Fused (Transformer Engine's RoPE
// kernel): one pass per tensor that reads and writes it, forward and backward. Unfused (a YaRN
// scale, which the fused kernel does not take): per tensor, cos and sin of the positions are
// scaled and cast (six small kernels), then t x cos, the negated half, the rotated copy
// (cat), x sin, the sum and a final cat (six passes, 24 bytes per element); backward about the
// same traffic in six kernels (22 bytes per element).
Op rope(double elements, bool unfused) noexcept {
    const double e = activation_bytes;
    if (!unfused) {
        Op op = elementwise(elements, 2.0 * e, 2.0 * e, 6.0);
        op.fwd.kernels = op.bwd.kernels = 2.0;
        return op;
    }
    Op op = elementwise(elements, 12.0 * e, 11.0 * e, 6.0);
    op.fwd.kernels = 2.0 * 12.0;
    op.bwd.kernels = 2.0 * 6.0;
    return op;
}

// The clamp of a gated activation's inputs as Megatron-Core's quick-GELU GLU runs it
// (GPT-OSS; weighted_bias_quick_geglu_impl: chunk, clamp each half, cat, then the fused
// activation), over `elements` values of the up-projection output: forward two clamps and the
// cat (8 bytes per element); backward a masked gradient per half and the cat of the two (10
// bytes per element). Its SwiGLU takes the clamp inside the fused kernel.
Op glu_clamp(double elements) noexcept {
    const double e = activation_bytes;
    Op op = elementwise(elements, 4.0 * e, 5.0 * e, 1.0);
    op.fwd.kernels = 3.0;
    op.bwd.kernels = 3.0;
    // The same function then copies the GLU's linear offset from pageable host memory to the
    // device (torch.tensor(linear_offset, device=...)), which PyTorch ends with a stream
    // synchronisation: the host waits for the queue to drain a second time per MoE forward.
    op.host_sync = true;
    return op;
}

// The routed experts' output bias, weighted by the router probability, as Megatron-Core's
// grouped MLP adds it on the eager path (TEGroupedMLP._apply_bias): per local expert b x p
// and t + b x p, then one cat (12 bytes per element of the expert output); backward per expert
// the two products and their reductions (the gradients of the bias and of the probabilities)
// and the gradient's cat (16 bytes per element).
Op expert_bias(double elements, double local) noexcept {
    const double e = activation_bytes;
    Op op = elementwise(elements, 6.0 * e, 8.0 * e, 2.0);
    op.fwd.kernels = 2.0 * local + 1.0;
    op.bwd.kernels = 4.0 * local + 1.0;
    return op;
}

}  // namespace

double routed_tokens_per_rank(const ModelSpec& m, WorkShape w) noexcept {
    if (!m.is_moe()) return 0.0;
    const double tokens = static_cast<double>(w.microbatch) * m.seq_len / w.cp;
    return m.capacity_factor * m.experts_per_token * tokens / w.tp;
}

double ep_buffer_bytes(const ModelSpec& m, WorkShape w) noexcept { return activation_bytes * routed_tokens_per_rank(m, w) * m.hidden; }

double etp_buffer_bytes(const ModelSpec& m, WorkShape w) noexcept {
    return w.etp > 1 ? activation_bytes * w.etp * routed_tokens_per_rank(m, w) * m.hidden : 0.0;
}

Op gemm_op(double batch, double m, double n, double k, bool weight, double in_bytes) noexcept {
    return gemm(batch, m, n, k, weight, in_bytes);
}

Op elementwise_op(double elements, double fwd_bytes_per_elem, double bwd_bytes_per_elem, double flops_per_elem) noexcept {
    return elementwise(elements, fwd_bytes_per_elem, bwd_bytes_per_elem, flops_per_elem);
}

AttentionDims attention_dims(const ModelSpec& m) noexcept {
    AttentionDims d;
    if (m.is_mla()) {
        d.qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
        d.v = m.v_head_dim;
        d.kv_heads = m.heads;  // every head has its own keys and values (from the latent)
        d.q_latent = m.q_lora_rank;
        d.kv_latent = m.kv_lora_rank + m.qk_rope_head_dim;
    } else {
        d.qk = d.v = m.head_dim;
        d.kv_heads = m.kv_heads;
    }
    return d;
}

double sliding_layer_share(const ModelSpec& m) noexcept {
    if (m.sliding_window <= 0 || m.sliding_window >= m.seq_len) return 0.0;
    if (m.full_attention_interval <= 0) return 1.0;
    // Every interval-th layer attends globally: floor(layers / interval) of them.
    const double full = std::floor(static_cast<double>(m.layers) / m.full_attention_interval);
    return (m.layers - full) / m.layers;
}

double attended_keys(const ModelSpec& m, bool sliding) noexcept {
    // Causal: a query at position i sees i + 1 keys, s/2 on average; the kernel computes the
    // diagonal tiles whole (half a tile more per query). A window of w keys: w per query once
    // past the first w, and a query tile straddles one more key tile.
    const double s = m.seq_len;
    const double causal = 0.5 * s + 0.5 * attention_tile;
    if (!sliding) return std::min(s, causal);
    const double w = m.sliding_window;
    return std::min(causal, w * (1.0 - 0.5 * w / s) + attention_tile);
}

namespace {

// FP8 quantization of GEMM operands, summed into one element-wise op per layer: before each
// FP8 GEMM its activation input is cast in forward and its output gradient in backward, each
// into a row-wise and a column-wise (transposed) copy. Per-tensor current scaling first reads
// the tensor for its absolute maximum; MXFP8 finds each 32-element block's scale in the same
// pass and writes one scale byte per block and copy. NVFP4 needs both: the per-tensor amax
// (its FP32 second-level scale) in a pass of its own, then a cast that writes two half-byte
// copies with an E4M3 scale per 16 elements; the column-wise copy, which feeds the weight
// gradient, first goes through a 16-point random Hadamard transform (2 x 16 FLOPs per element,
// NVIDIA's FP4 recipe), and gradients are rounded stochastically (a random number per element).
struct CastOp {
    double fwd_elems = 0, bwd_elems = 0, fwd_kernels = 0, bwd_kernels = 0;
    void input(double elems, double kernels = 1) noexcept {
        fwd_elems += elems;
        fwd_kernels += kernels;
    }
    void grad(double elems, double kernels = 1) noexcept {
        bwd_elems += elems;
        bwd_kernels += kernels;
    }
    [[nodiscard]] Op op(Precision p) const noexcept {
        const double per = p == Precision::mxfp8 ? 2.0 + 2.0 + 2.0 / 32.0                   // read 16-bit, write two fp8 copies + scales
                           : is_fp4(p)           ? 2.0 + 2.0 + 2.0 * gemm_operand_bytes(p)  // amax pass, read, two fp4 copies + scales
                                                 : 2.0 + 2.0 + 2.0;                                   // amax pass, read, write two copies
        // Current scaling and NVFP4 find each tensor's absolute maximum in a kernel of its own
        // before the cast; MXFP8 scales each block inside the cast kernel. Current scaling also
        // zeroes the amax before and turns it into the scale after, in two single-thread kernels
        // (Transformer Engine's Float8CurrentScalingQuantizer::quantize_impl).
        const double kernels_per_cast = p == Precision::mxfp8 ? 1.0 : 2.0;
        const double helpers_per_cast = p == Precision::fp8 ? 2.0 : 0.0;
        const double flops = is_fp4(p) ? 2.0 + 32.0 + 4.0 : 2.0;  // scale and round; + Hadamard, stochastic rounding
        Op o;
        o.kind = OpKind::elementwise;
        o.fwd = {flops * fwd_elems, per * fwd_elems, kernels_per_cast * fwd_kernels};
        o.bwd = {flops * bwd_elems, per * bwd_elems, kernels_per_cast * bwd_kernels};
        o.fwd.helper_kernels = helpers_per_cast * fwd_kernels;
        o.bwd.helper_kernels = helpers_per_cast * bwd_kernels;
        return o;
    }
};

// The MLP of a dense block on one TP rank: `width` per matrix split over t.
void push_mlp(LayerWork& lw, const ModelSpec& m, double tokens, double width_rank, double in, CastOp* cast) noexcept {
    const double e = activation_bytes;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };
    const double up_width = m.gated_mlp ? 2.0 * width_rank : width_rank;
    Op mlp_in = gemm(1, tokens, up_width, m.hidden, true, in);  // MLP in (gate and up for gated MLPs)
    mlp_in.tp_pair = 2;
    push(mlp_in);
    const double gin = m.gated_mlp ? 2.0 : 1.0;
    push(elementwise(tokens * width_rank, (gin + 1.0) * e, (2.0 * gin + 1.0) * e, 8.0));  // GeLU / SwiGLU
    Op mlp_out = gemm(1, tokens, m.hidden, width_rank, true, in);                         // MLP out
    mlp_out.tp_pair = 3;
    push(mlp_out);
    if (cast) {
        cast->input(tokens * m.hidden);
        cast->grad(tokens * up_width);
        cast->input(tokens * width_rank);
        cast->grad(tokens * m.hidden);
    }
}

// An op of the routed path (its shapes follow the routing): the host issues it even when the
// software captures the dense layers as CUDA graphs (GraphScope::dense).
Op routed_op(Op op) noexcept {
    op.fwd.routed = op.bwd.routed = true;
    return op;
}

// The routed experts of an MoE block on one rank. Each rank routes its tokens' copies
// (routed_tokens_per_rank) to the experts by all-to-all over the EP group; the expert-TP group
// gathers them, so every rank runs its experts / ep local experts on etp x routed copies with
// 1/etp of each expert's matrices (a grouped GEMM, one per local expert). The router runs in
// 16 bits; its top-k, the permutation into expert order (a sort: index computation, then a
// gather of the hidden states) and the un-permutation (a scatter-add weighted by the router
// probabilities) are memory-bound kernels.
void push_routed_experts(LayerWork& lw, const ModelSpec& m, const SoftwareSpec& sw, double tokens_rank, double routed, WorkShape w,
                         double in, CastOp* cast) noexcept {
    // The router, its top-k and the permutation before the dispatch (Megatron-Core's
    // dispatch_preprocess) run at fixed shapes; from the token dispatch on (the experts, their
    // activation, the combine) the shapes follow the routing (routed_op()).
    const double e = activation_bytes;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };
    const double h = m.hidden;
    const double u = w.etp;
    const double local = static_cast<double>(m.experts) / w.ep;
    const double per_expert = u * routed / local;  // token copies per local expert
    const double f = m.expert_ffn_hidden / u;
    const double up_width = m.gated_mlp ? 2.0 * f : f;
    push(gemm(1, tokens_rank, m.experts, h, true));                                      // router logits
    Op topk = elementwise(tokens_rank * m.experts, 2.0 * e + 4.0, 4.0 + 2.0 * e, 10.0);  // softmax + top-k
    topk.fwd.kernels = topk.bwd.kernels = 3.0;                                           // softmax, top-k, routing map / aux statistics
    push(topk);
    Op permute = elementwise(routed * h, 2.0 * e, 2.0 * e, 1.0);  // permute into expert order
    permute.fwd.kernels = permute.bwd.kernels = 3.0;              // sort indices, gather, per-expert counts
    permute.host_sync = sw.moe_host_sync;                         // the tokens per expert reach the host before the dispatch
    push(permute);
    // Transformer Engine's grouped linear layer issues one GEMM per local expert (and quantizes
    // each expert's operands separately in FP8): the kernels scale with the local experts. A
    // grouped kernel (SoftwareSpec::grouped_gemm one_kernel) runs the same tiles in one launch
    // per pass and product.
    const double launches = sw.grouped_gemm == GroupedGemm::per_expert ? local : 1.0;
    Op up = gemm(local, per_expert, up_width, h, true, in);
    up.expert = true;
    set_launches(up, launches);
    push(routed_op(up));
    if (m.glu_clamp > 0 && m.gated_mlp) push(routed_op(glu_clamp(u * routed * up_width)));
    const double gated = m.gated_mlp ? 2.0 : 1.0;
    push(routed_op(elementwise(u * routed * f, (gated + 1.0) * e, (2.0 * gated + 1.0) * e, 8.0)));
    Op out = gemm(local, per_expert, h, f, true, in);
    out.expert = true;
    set_launches(out, launches);
    push(routed_op(out));
    if (m.bias) push(routed_op(expert_bias(u * routed * h, local)));
    Op unpermute = elementwise(routed * h, 3.0 * e, 3.0 * e, 2.0);  // un-permute, weight by the router, sum
    unpermute.fwd.kernels = unpermute.bwd.kernels = 2.0;
    push(routed_op(unpermute));
    if (cast) {
        // A per-expert layer quantizes each expert's operands; a grouped kernel the stacked ones.
        cast->input(u * routed * h, launches);
        cast->grad(u * routed * up_width, launches);
        cast->input(u * routed * f, launches);
        cast->grad(u * routed * h, launches);
    }
}

}  // namespace

namespace {

// The query, key and value projections of one layer on this rank (a query and g KV heads), with
// RoPE: MLA's latent down- and up-projections, or one fused QKV GEMM.
void push_qkv(LayerWork& lw, const ModelSpec& m, const AttentionDims& ad, double tokens, double a, double g, double in,
              CastOp* cast) noexcept {
    const double h = m.hidden;
    const double e = activation_bytes;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };
    if (m.is_mla()) {
        // Down-projections to the query and key/value latents are replicated on every TP rank
        // (Megatron-Core's MLA); the up-projections are split by heads.
        if (ad.q_latent > 0) {
            Op q_down = gemm(1, tokens, ad.q_latent, h, true, in);
            q_down.tp_pair = 0;
            push(q_down);
            push(norm(tokens, ad.q_latent));
            push(gemm(1, tokens, a * ad.qk, ad.q_latent, true, in));
            if (cast) {
                cast->input(tokens * ad.q_latent);
                cast->grad(tokens * a * ad.qk);
            }
        } else {
            Op q = gemm(1, tokens, a * ad.qk, h, true, in);
            q.tp_pair = 0;
            push(q);
            if (cast) cast->grad(tokens * a * ad.qk);
        }
        Op kv_down = gemm(1, tokens, ad.kv_latent, h, true, in);
        kv_down.tp_pair = 0;
        push(kv_down);
        push(norm(tokens, m.kv_lora_rank));
        push(gemm(1, tokens, a * (m.qk_nope_head_dim + ad.v), m.kv_lora_rank, true, in));
        push(elementwise(tokens * a * (ad.qk + ad.v), 2.0 * e, 2.0 * e, 2.0));  // RoPE and the K/V layout
        if (cast) {
            cast->input(tokens * h);
            cast->grad(tokens * (ad.q_latent + ad.kv_latent));
            cast->input(tokens * m.kv_lora_rank);
            cast->grad(tokens * a * (m.qk_nope_head_dim + ad.v));
        }
    } else {
        Op qkv = gemm(1, tokens, a * ad.qk + g * (ad.qk + ad.v), h, true, in);  // QKV
        qkv.tp_pair = 0;
        push(qkv);
        if (cast) {
            cast->input(tokens * h);
            cast->grad(tokens * (a * ad.qk + g * (ad.qk + ad.v)));
        }
        if (!m.learned_position_embeddings) push(rope(tokens * (a + g) * ad.qk, m.rope_mscale != 1.0));
    }
}

// The attention core of one layer on this rank: the unfused scores, softmax, dropout and context
// GEMMs, or one FlashAttention-class kernel.
void push_attention_core(LayerWork& lw, const ModelSpec& m, const TrainingSpec& tr, const AttentionDims& ad, WorkShape w, bool sliding,
                         double a, double g) noexcept {
    const double b = w.microbatch;
    const double sq = static_cast<double>(m.seq_len) / w.cp;  // this rank's queries of a sequence
    const double sk = m.seq_len;                              // keys each query attends to
    const double tokens = b * sq;
    const double e = activation_bytes;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };
    const double heads_batch = b * a;
    if (tr.attention == AttentionKernel::unfused) {
        Op scores = gemm(heads_batch, sq, sk, ad.qk, false);
        scores.attention_core = true;
        push(scores);
        Op softmax = elementwise(heads_batch * sq * sk, 2.0 * e, 3.0 * e, 5.0);
        softmax.attention_core = true;
        push(softmax);
        if (tr.dropout) {
            Op drop = elementwise(heads_batch * sq * sk, 2.0 * e + mask_bytes, 2.0 * e + mask_bytes, 2.0);
            drop.attention_core = true;
            push(drop);
        }
        Op context = gemm(heads_batch, sq, ad.v, sk, false);
        context.attention_core = true;
        push(context);
    } else {
        // FlashAttention-class kernel: scores never reach HBM; tiles above the diagonal (or
        // outside the window) are skipped; backward recomputes the scores (2.5x the forward
        // FLOPs). With context parallelism (causal load balancing) each rank does 1/cp of the
        // work and reads every key/value chunk of the ring once.
        Op fa;
        fa.kind = OpKind::fused_attention;
        fa.attention_core = true;
        const double keys = attended_keys(m, sliding);
        const double flops = 2.0 * heads_batch * sq * keys * (ad.qk + ad.v);
        const double io = w.cp == 1 ? e * tokens * (a * (ad.qk + ad.v) + g * (ad.qk + ad.v))  // read Q, K, V; write O
                                    : e * (a * tokens * (ad.qk + ad.v) + g * b * sk * (ad.qk + ad.v));
        const double dim = 0.5 * (ad.qk + ad.v);
        fa.fwd = {flops, io, 1.0, 1.0 / keys, dim, false};
        fa.bwd = {2.5 * flops, 2.0 * io + e * tokens * a * ad.v, 1.0, 1.0 / keys, dim, true};
        push(fa);
    }
}

}  // namespace

LayerWork layer_work(const ModelSpec& m, const TrainingSpec& tr, const SoftwareSpec& sw, WorkShape w, bool moe, bool sliding) noexcept {
    const double t = w.tp;
    const double b = w.microbatch;
    const double sq = static_cast<double>(m.seq_len) / w.cp;  // this rank's queries of a sequence
    const double h = m.hidden;
    const AttentionDims ad = attention_dims(m);
    const double a = m.heads / t;       // query heads on this rank
    const double g = ad.kv_heads / t;   // KV heads on this rank
    const double f = m.ffn_hidden / t;  // MLP width on this rank
    const double tokens = b * sq;
    const double norm_tokens = w.sequence_parallel ? tokens / t : tokens;
    const double e = activation_bytes;
    // FP8 training runs the block's linear layers on 1-byte operands (the router, attention
    // core and LM head stay in 16 bits).
    const bool quantized = is_quantized(tr.precision);
    const double in = quantized ? gemm_operand_bytes(tr.precision) : e;
    CastOp cast_op;
    CastOp* cast = quantized ? &cast_op : nullptr;
    CastOp expert_cast_op;  // the routed experts' casts (routed_op(): their shapes follow the routing)

    LayerWork lw;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };

    push(norm(norm_tokens, h));
    push_qkv(lw, m, ad, tokens, a, g, in, cast);
    push_attention_core(lw, m, tr, ad, w, sliding, a, g);
    Op proj = gemm(1, tokens, h, a * ad.v, true, in);  // output projection
    proj.tp_pair = 1;
    push(proj);
    if (cast) {
        cast->input(tokens * a * ad.v);
        cast->grad(tokens * h);
    }
    push(bias_dropout_add(norm_tokens, h, tr.dropout));
    push(norm(norm_tokens, h));
    if (moe && m.is_moe()) {
        const double routed = routed_tokens_per_rank(m, w);
        push_routed_experts(lw, m, sw, tokens / t, routed, w, in, quantized ? &expert_cast_op : nullptr);
        if (m.shared_experts > 0) push_mlp(lw, m, tokens, static_cast<double>(m.shared_experts) * m.expert_ffn_hidden / t, in, cast);
        lw.ep_bytes = ep_buffer_bytes(m, w);
        lw.etp_bytes = etp_buffer_bytes(m, w);
    } else {
        push_mlp(lw, m, tokens, f, in, cast);
    }
    push(bias_dropout_add(norm_tokens, h, tr.dropout));
    if (cast) push(cast_op.op(tr.precision));
    if (cast && expert_cast_op.fwd_kernels > 0) push(routed_op(expert_cast_op.op(tr.precision)));

    lw.tp_bytes = e * tokens * h;
    lw.pp_bytes = e * tokens * h;
    // Ring attention passes this rank's keys and values (its KV heads) to the next CP rank.
    if (w.cp > 1) lw.cp_kv_bytes = e * tokens * g * (ad.qk + ad.v);
    return lw;
}

EndsWork ends_work(const ModelSpec& m, const TrainingSpec& tr, WorkShape w) noexcept {
    (void)tr;
    const double t = w.tp;
    const double tokens = static_cast<double>(w.microbatch) * m.seq_len / w.cp;
    const double norm_tokens = w.sequence_parallel ? tokens / t : tokens;
    const double h = m.hidden;
    const double v = m.vocab / t;
    const double e = activation_bytes;
    EndsWork ew;
    // Lookup writes the hidden states (and adds positions); backward scatter-adds into the
    // fp32 gradient of the table.
    ew.embedding = elementwise(tokens * h, 3.0 * e, e + 2.0 * fp32_bytes, 1.0);
    ew.final_norm = norm(norm_tokens, h);
    ew.lm_head = gemm(1, tokens, v, h, true);
    // Vocabulary-parallel cross-entropy over fp32 logits: convert, max, exp-sum, normalise.
    ew.loss = elementwise(tokens * v, e + 4.0 * fp32_bytes, fp32_bytes + e, 6.0);
    ew.mtp_projection = gemm(1, tokens, h / t, 2.0 * h, true);
    return ew;
}

int moe_layer_count(const ModelSpec& m) noexcept {
    if (!m.is_moe() || m.moe_layer_interval < 1) return 0;
    return std::max(0, m.layers - m.dense_layers) / m.moe_layer_interval;
}

int dense_layer_count(const ModelSpec& m) noexcept { return m.layers - moe_layer_count(m); }

namespace {
// One MLP of width f (per matrix).
double mlp_parameters(const ModelSpec& m, double f) noexcept {
    const double h = m.hidden;
    const double up = m.gated_mlp ? 2.0 * f : f;
    double p = h * up + f * h;
    if (m.bias) p += up + h;
    return p;
}
}  // namespace

double attention_parameters(const ModelSpec& m) noexcept {
    const double h = m.hidden;
    const double a = m.heads;
    const AttentionDims d = attention_dims(m);
    double p = 0;
    if (m.is_mla()) {
        const double qd = d.qk, v = d.v;
        p += d.q_latent > 0 ? h * d.q_latent + d.q_latent * a * qd + d.q_latent : h * a * qd;   // queries (+ latent norm)
        p += h * d.kv_latent + m.kv_lora_rank * a * (m.qk_nope_head_dim + v) + m.kv_lora_rank;  // keys, values (+ norm)
        p += a * v * h;                                                                         // output projection
        if (m.bias) p += h;
    } else {
        const double q = a * d.qk;
        const double kv = d.kv_heads * (d.qk + d.v);
        p = h * (q + kv) + a * d.v * h;
        if (m.bias) p += (q + kv) + h;
    }
    return p + 2.0 * final_norm_parameters(m);
}

double layer_parameters(const ModelSpec& m) noexcept { return attention_parameters(m) + mlp_parameters(m, m.ffn_hidden); }

double moe_layer_shared_parameters(const ModelSpec& m) noexcept {
    if (!m.is_moe()) return 0.0;
    return attention_parameters(m) + static_cast<double>(m.hidden) * m.experts +  // router
           m.shared_experts * mlp_parameters(m, m.expert_ffn_hidden);
}

double moe_layer_expert_parameters(const ModelSpec& m) noexcept {
    if (!m.is_moe()) return 0.0;
    return m.experts * mlp_parameters(m, m.expert_ffn_hidden);
}

double active_parameters(const ModelSpec& m) noexcept {
    const double moe = moe_layer_count(m);
    const double routed = m.is_moe() ? m.experts_per_token * mlp_parameters(m, m.expert_ffn_hidden) : 0.0;
    return dense_layer_count(m) * layer_parameters(m) + moe * (moe_layer_shared_parameters(m) + routed) + embedding_parameters(m) +
           lm_head_parameters(m) + final_norm_parameters(m);
}

double embedding_parameters(const ModelSpec& m) noexcept {
    double p = static_cast<double>(m.vocab) * m.hidden;
    if (m.learned_position_embeddings) p += static_cast<double>(m.seq_len) * m.hidden;
    return p;
}

double lm_head_parameters(const ModelSpec& m) noexcept { return m.tied_embeddings ? 0.0 : static_cast<double>(m.vocab) * m.hidden; }

double final_norm_parameters(const ModelSpec& m) noexcept { return (m.bias ? 2.0 : 1.0) * m.hidden; }

double mtp_extra_parameters(const ModelSpec& m) noexcept {
    const double h = m.hidden;
    return m.mtp_layers * (2.0 * h * h + 3.0 * final_norm_parameters(m));
}

// The main model's parameters, as models publish them (DeepSeek-V3's 671B): multi-token
// prediction modules are training-time heads outside that count (their layers and projections
// are held in memory on the last stage all the same).
double total_parameters(const ModelSpec& m) noexcept {
    if (!m.is_moe()) return m.layers * layer_parameters(m) + embedding_parameters(m) + lm_head_parameters(m) + final_norm_parameters(m);
    const double moe = moe_layer_count(m);
    return dense_layer_count(m) * layer_parameters(m) + moe * (moe_layer_shared_parameters(m) + moe_layer_expert_parameters(m)) +
           embedding_parameters(m) + lm_head_parameters(m) + final_norm_parameters(m);
}

double attention_core_flops_per_sequence(const ModelSpec& m, KeyCount count) noexcept {
    const double s = m.seq_len;
    const AttentionDims d = attention_dims(m);
    const double sw = sliding_layer_share(m);
    // A query at position i sees i + 1 keys, (s + 1) / 2 on average; in a window of w keys
    // min(i + 1, w), w - w (w - 1) / 2s on average. Megatron-LM counts s (or w) for every query.
    const double full_keys = count == KeyCount::megatron ? s : 0.5 * (s + 1.0);
    double keys = full_keys;
    if (sw > 0) {
        const double w = std::min<double>(s, m.sliding_window);
        const double window_keys = count == KeyCount::megatron ? w : w - w * (w - 1.0) / (2.0 * s);
        keys = (1.0 - sw) * full_keys + sw * window_keys;
    }
    // Scores over the query/key head size, context over the value head size (MLA: d_nope +
    // d_rope and d_v).
    return 2.0 * s * keys * m.heads * (d.qk + d.v);
}

double selective_recompute_flops_per_sequence(const ModelSpec& m) noexcept {
    return (m.layers + m.mtp_layers) * attention_core_flops_per_sequence(m, KeyCount::megatron);
}

double forward_gemm_flops_per_sequence(const ModelSpec& m, KeyCount count) noexcept {
    const double s = m.seq_len;
    const double h = m.hidden;
    const AttentionDims d = attention_dims(m);
    const double f = m.ffn_hidden;
    const double up = m.gated_mlp ? 2.0 * f : f;
    // Projections: 2 FLOPs per weight and token (biases and norms aside); scores and context
    // over the keys a query attends to, counted as `count` says.
    ModelSpec nb = m;
    nb.bias = false;
    const double proj = 2.0 * s *
                        (attention_parameters(nb) - 2.0 * final_norm_parameters(nb) -
                         (m.is_mla() ? (d.q_latent > 0 ? d.q_latent : 0.0) + m.kv_lora_rank : 0.0));
    const double attention = proj + attention_core_flops_per_sequence(m, count);
    const double per_layer = attention + 2.0 * s * h * (up + f);  // + MLP
    // Multi-token prediction: per module its projection, one more layer and one more LM head.
    const double mtp_ends = m.mtp_layers * (2.0 * s * h * 2.0 * h + 2.0 * s * h * m.vocab);
    if (!m.is_moe()) return (m.layers + m.mtp_layers) * per_layer + 2.0 * s * h * m.vocab + mtp_ends;
    // An MoE layer: attention as above, the router, the shared experts and the experts each
    // token visits (capacity padding is hardware work, not model work).
    const double fe = m.expert_ffn_hidden;
    const double up_e = m.gated_mlp ? 2.0 * fe : fe;
    const double moe_layer =
        attention + 2.0 * s * h * m.experts + (m.shared_experts + static_cast<double>(m.experts_per_token)) * 2.0 * s * h * (up_e + fe);
    return dense_layer_count(m) * per_layer + (moe_layer_count(m) + m.mtp_layers) * moe_layer + 2.0 * s * h * m.vocab + mtp_ends;
}

}  // namespace comet
