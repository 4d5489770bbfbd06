#include "comet/workload.hpp"

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

LayerWork layer_work(const ModelSpec& m, const TrainingSpec& tr, WorkShape w) noexcept {
    const double t = w.tp;
    const double b = w.microbatch;
    const double s = m.seq_len;
    const double h = m.hidden;
    const double dh = m.head_dim;
    const double a = m.heads / t;        // query heads on this rank
    const double g = m.kv_heads / t;     // KV heads on this rank
    const double f = m.ffn_hidden / t;   // MLP width on this rank
    const double tokens = b * s;
    const double norm_tokens = w.sequence_parallel ? tokens / t : tokens;
    const double e = activation_bytes;

    LayerWork lw;
    auto push = [&lw](const Op& op) noexcept { lw.ops[static_cast<std::size_t>(lw.count++)] = op; };

    push(norm(norm_tokens, h));
    push(gemm(1, tokens, (a + 2 * g) * dh, h, true));  // QKV
    const double heads_batch = b * a;
    if (tr.attention == AttentionKernel::unfused) {
        Op scores = gemm(heads_batch, s, s, dh, false);
        scores.attention_core = true;
        push(scores);
        Op softmax = elementwise(heads_batch * s * s, 2.0 * e, 3.0 * e, 5.0);
        softmax.attention_core = true;
        push(softmax);
        if (tr.dropout) {
            Op drop = elementwise(heads_batch * s * s, 2.0 * e + mask_bytes, 2.0 * e + mask_bytes, 2.0);
            drop.attention_core = true;
            push(drop);
        }
        Op context = gemm(heads_batch, s, dh, s, false);
        context.attention_core = true;
        push(context);
    } else {
        // FlashAttention-style kernel: scores never reach HBM; causal tiles above the
        // diagonal are skipped; backward recomputes the scores (2.5x forward FLOPs).
        Op fa;
        fa.kind = OpKind::fused_attention;
        fa.attention_core = true;
        const double flops = 0.5 * 4.0 * heads_batch * s * s * dh;
        const double io = e * tokens * dh * (2.0 * a + 2.0 * g);  // read Q, K, V; write O
        fa.fwd = {flops, io, 1.0, 1.0 / dh};
        fa.bwd = {2.5 * flops, 2.0 * io + e * tokens * a * dh, 1.0, 1.0 / dh};
        push(fa);
    }
    push(gemm(1, tokens, h, a * dh, true));  // output projection
    push(bias_dropout_add(norm_tokens, h, tr.dropout));
    push(norm(norm_tokens, h));
    const double up_width = m.gated_mlp ? 2.0 * f : f;
    push(gemm(1, tokens, up_width, h, true));  // MLP in (gate and up for gated MLPs)
    {
        const double in = m.gated_mlp ? 2.0 : 1.0;
        push(elementwise(tokens * f, (in + 1.0) * e, (2.0 * in + 1.0) * e, 8.0));  // GeLU / SwiGLU
    }
    push(gemm(1, tokens, h, f, true));  // MLP out
    push(bias_dropout_add(norm_tokens, h, tr.dropout));

    lw.tp_bytes = e * tokens * h;
    lw.pp_bytes = e * tokens * h;
    return lw;
}

EndsWork ends_work(const ModelSpec& m, const TrainingSpec& tr, WorkShape w) noexcept {
    (void)tr;
    const double t = w.tp;
    const double tokens = static_cast<double>(w.microbatch) * m.seq_len;
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
    return m.layers * layer_parameters(m) + embedding_parameters(m) + lm_head_parameters(m) +
           final_norm_parameters(m);
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
    return m.layers * per_layer + 2.0 * s * h * m.vocab;
}

}  // namespace comet
