#include "comet/workload.hpp"

#include <algorithm>

namespace comet {
namespace {

constexpr double activation_bytes = 2.0;  // 16-bit activations
constexpr double fp32_bytes = 4.0;
constexpr double mask_bytes = 1.0;  // dropout masks are stored as bytes

// A GEMM C[M,N] = A[M,K] * B[K,N], repeated `batch` times. Backward is two GEMMs of the
// same size (input gradient and weight gradient); a weight gradient accumulates into an
// fp32 main-gradient buffer when `weight` is set.
Op gemm(double batch, double m, double n, double k, bool weight) noexcept {
    const double e = activation_bytes;
    Op op;
    op.kind = OpKind::gemm;
    const double flops = 2.0 * batch * m * n * k;
    op.fwd = {flops, batch * e * (m * k + k * n + m * n), 1.0, 1.0 / k};
    const double dgrad_bytes = batch * e * (m * n + n * k + m * k);
    const double wgrad_bytes =
        weight ? batch * (e * (m * k + m * n)) + 2.0 * fp32_bytes * k * n
               : batch * e * (m * k + m * n + k * n);
    // Input gradient: inner dimension n; weight gradient: inner dimension m.
    op.bwd = {2.0 * flops, dgrad_bytes + wgrad_bytes, 2.0, 0.5 / n + 0.5 / m};
    return op;
}

// An element-wise kernel over `elements` values: bytes per element read+written in forward
// and backward, and a few vector FLOPs per element.
Op elementwise(double elements, double fwd_bytes_per_elem, double bwd_bytes_per_elem,
               double flops_per_elem) noexcept {
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

}  // namespace

double routed_tokens_per_rank(const ModelSpec& m, WorkShape w) noexcept {
    if (!m.is_moe()) return 0.0;
    const double tokens = static_cast<double>(w.microbatch) * m.seq_len / w.cp;
    return m.capacity_factor * m.experts_per_token * tokens / w.tp;
}

namespace {

// The MLP of a dense block on one TP rank: `width` per matrix split over t.
void push_mlp(LayerWork& lw, const ModelSpec& m, double tokens, double width_rank) noexcept {
    const double e = activation_bytes;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };
    const double up_width = m.gated_mlp ? 2.0 * width_rank : width_rank;
    push(gemm(1, tokens, up_width, m.hidden, true));  // MLP in (gate and up for gated MLPs)
    const double in = m.gated_mlp ? 2.0 : 1.0;
    push(elementwise(tokens * width_rank, (in + 1.0) * e, (2.0 * in + 1.0) * e, 8.0));  // GeLU / SwiGLU
    push(gemm(1, tokens, m.hidden, width_rank, true));  // MLP out
}

// The routed experts of an MoE block on one rank. Each rank routes its tokens' copies
// (routed_tokens_per_rank) to the experts by all-to-all over the EP group; the expert-TP group
// gathers them, so every rank runs its experts / ep local experts on etp x routed copies with
// 1/etp of each expert's matrices (a grouped GEMM, one per local expert).
void push_routed_experts(LayerWork& lw, const ModelSpec& m, double tokens_rank, double routed, WorkShape w) noexcept {
    const double e = activation_bytes;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };
    const double h = m.hidden;
    const double u = w.etp;
    const double local = static_cast<double>(m.experts) / w.ep;
    const double per_expert = u * routed / local;  // token copies per local expert
    const double f = m.expert_ffn_hidden / u;
    const double up_width = m.gated_mlp ? 2.0 * f : f;
    push(gemm(1, tokens_rank, m.experts, h, true));                       // router logits
    push(elementwise(tokens_rank * m.experts, 2.0 * e + 4.0, 4.0 + 2.0 * e, 10.0));  // softmax + top-k
    push(elementwise(routed * h, 2.0 * e, 2.0 * e, 1.0));                 // permute into expert order
    Op in = gemm(local, per_expert, up_width, h, true);
    in.expert = true;
    push(in);
    const double gated = m.gated_mlp ? 2.0 : 1.0;
    push(elementwise(u * routed * f, (gated + 1.0) * e, (2.0 * gated + 1.0) * e, 8.0));
    Op out = gemm(local, per_expert, h, f, true);
    out.expert = true;
    push(out);
    push(elementwise(routed * h, 3.0 * e, 3.0 * e, 2.0));  // un-permute, weight by the router, sum
}

}  // namespace

LayerWork layer_work(const ModelSpec& m, const TrainingSpec& tr, WorkShape w, bool moe) noexcept {
    const double t = w.tp;
    const double b = w.microbatch;
    const double sq = static_cast<double>(m.seq_len) / w.cp;  // this rank's queries of a sequence
    const double sk = m.seq_len;                              // keys each query attends to
    const double h = m.hidden;
    const double dh = m.head_dim;
    const double a = m.heads / t;        // query heads on this rank
    const double g = m.kv_heads / t;     // KV heads on this rank
    const double f = m.ffn_hidden / t;   // MLP width on this rank
    const double tokens = b * sq;
    const double norm_tokens = w.sequence_parallel ? tokens / t : tokens;
    const double e = activation_bytes;

    LayerWork lw;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };

    push(norm(norm_tokens, h));
    push(gemm(1, tokens, (a + 2 * g) * dh, h, true));  // QKV
    const double heads_batch = b * a;
    if (tr.attention == AttentionKernel::unfused) {
        Op scores = gemm(heads_batch, sq, sk, dh, false);
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
        Op context = gemm(heads_batch, sq, dh, sk, false);
        context.attention_core = true;
        push(context);
    } else {
        // FlashAttention-style kernel: scores never reach HBM; causal tiles above the
        // diagonal are skipped; backward recomputes the scores (2.5x forward FLOPs). With
        // context parallelism (causal load balancing) each rank still does 1/cp of the work
        // and reads every key/value chunk of the ring once.
        Op fa;
        fa.kind = OpKind::fused_attention;
        fa.attention_core = true;
        const double flops = 0.5 * 4.0 * heads_batch * sq * sk * dh;
        const double io = w.cp == 1 ? e * tokens * dh * (2.0 * a + 2.0 * g)  // read Q, K, V; write O
                                    : e * dh * (2.0 * a * tokens + 2.0 * g * b * sk);
        fa.fwd = {flops, io, 1.0, 1.0 / dh};
        fa.bwd = {2.5 * flops, 2.0 * io + e * tokens * a * dh, 1.0, 1.0 / dh};
        push(fa);
    }
    push(gemm(1, tokens, h, a * dh, true));  // output projection
    push(bias_dropout_add(norm_tokens, h, tr.dropout));
    push(norm(norm_tokens, h));
    if (moe && m.is_moe()) {
        const double routed = routed_tokens_per_rank(m, w);
        push_routed_experts(lw, m, tokens / t, routed, w);
        if (m.shared_experts > 0)
            push_mlp(lw, m, tokens, static_cast<double>(m.shared_experts) * m.expert_ffn_hidden / t);
        lw.ep_bytes = e * routed * h;
        lw.etp_bytes = w.etp > 1 ? e * w.etp * routed * h : 0.0;
    } else {
        push_mlp(lw, m, tokens, f);
    }
    push(bias_dropout_add(norm_tokens, h, tr.dropout));

    lw.tp_bytes = e * tokens * h;
    lw.pp_bytes = e * tokens * h;
    // Ring attention passes this rank's keys and values (its KV heads) to the next CP rank.
    if (w.cp > 1) lw.cp_kv_bytes = 2.0 * e * tokens * g * dh;
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
    return ew;
}

int moe_layer_count(const ModelSpec& m) noexcept {
    if (!m.is_moe() || m.moe_layer_interval < 1) return 0;
    return std::max(0, m.layers - m.dense_layers) / m.moe_layer_interval;
}

int dense_layer_count(const ModelSpec& m) noexcept { return m.layers - moe_layer_count(m); }

namespace {
// Attention, its biases and the two norms of one block.
double attention_parameters(const ModelSpec& m) noexcept {
    const double h = m.hidden;
    const double q = static_cast<double>(m.heads) * m.head_dim;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim;
    double p = h * (q + 2 * kv) + q * h;
    if (m.bias) p += (q + 2 * kv) + h;
    return p + 2.0 * final_norm_parameters(m);
}
// One MLP of width f (per matrix).
double mlp_parameters(const ModelSpec& m, double f) noexcept {
    const double h = m.hidden;
    const double up = m.gated_mlp ? 2.0 * f : f;
    double p = h * up + f * h;
    if (m.bias) p += up + h;
    return p;
}
}  // namespace

double layer_parameters(const ModelSpec& m) noexcept {
    const double h = m.hidden;
    const double q = static_cast<double>(m.heads) * m.head_dim;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim;
    const double f = m.ffn_hidden;
    const double up = m.gated_mlp ? 2.0 * f : f;
    double p = h * (q + 2 * kv) + q * h + h * up + f * h;
    if (m.bias) p += (q + 2 * kv) + h + up + h;
    p += 2.0 * final_norm_parameters(m);  // two norms per layer
    return p;
}

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
    return dense_layer_count(m) * layer_parameters(m) + moe * (moe_layer_shared_parameters(m) + routed) +
           embedding_parameters(m) + lm_head_parameters(m) + final_norm_parameters(m);
}

double embedding_parameters(const ModelSpec& m) noexcept {
    double p = static_cast<double>(m.vocab) * m.hidden;
    if (m.learned_position_embeddings) p += static_cast<double>(m.seq_len) * m.hidden;
    return p;
}

double lm_head_parameters(const ModelSpec& m) noexcept {
    return m.tied_embeddings ? 0.0 : static_cast<double>(m.vocab) * m.hidden;
}

double final_norm_parameters(const ModelSpec& m) noexcept {
    return (m.bias ? 2.0 : 1.0) * m.hidden;
}

double total_parameters(const ModelSpec& m) noexcept {
    if (!m.is_moe())
        return m.layers * layer_parameters(m) + embedding_parameters(m) + lm_head_parameters(m) +
               final_norm_parameters(m);
    const double moe = moe_layer_count(m);
    return dense_layer_count(m) * layer_parameters(m) +
           moe * (moe_layer_shared_parameters(m) + moe_layer_expert_parameters(m)) + embedding_parameters(m) +
           lm_head_parameters(m) + final_norm_parameters(m);
}

double forward_gemm_flops_per_sequence(const ModelSpec& m) noexcept {
    const double s = m.seq_len;
    const double h = m.hidden;
    const double q = static_cast<double>(m.heads) * m.head_dim;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim;
    const double f = m.ffn_hidden;
    const double up = m.gated_mlp ? 2.0 * f : f;
    const double per_layer = 2.0 * s * h * (q + 2 * kv)  // QKV
                             + 4.0 * s * s * q           // scores and context
                             + 2.0 * s * q * h           // projection
                             + 2.0 * s * h * (up + f);   // MLP
    if (!m.is_moe()) return m.layers * per_layer + 2.0 * s * h * m.vocab;
    // An MoE layer: attention as above, the router, the shared experts and the experts each
    // token visits (capacity padding is hardware work, not model work).
    const double fe = m.expert_ffn_hidden;
    const double up_e = m.gated_mlp ? 2.0 * fe : fe;
    const double attention = per_layer - 2.0 * s * h * (up + f);
    const double moe_layer = attention + 2.0 * s * h * m.experts +
                             (m.shared_experts + static_cast<double>(m.experts_per_token)) * 2.0 * s * h * (up_e + fe);
    return dense_layer_count(m) * per_layer + moe_layer_count(m) * moe_layer + 2.0 * s * h * m.vocab;
}

}  // namespace comet
