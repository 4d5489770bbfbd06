#include "comet/memory.hpp"

#include <algorithm>

#include "comet/units.hpp"

namespace comet {

double hbm_unusable_bytes(const NodeSpec& n, const SoftwareSpec& sw) noexcept {
    return units::gib_to_bytes(sw.hbm_reserved_gib + sw.hbm_allocator_margin * n.hbm_capacity_gib);
}

bool capacity_verdict(Result& r, double expanded_used_bytes, double expanded_capacity_bytes) noexcept {
    r.feasible = true;
    r.reason = Infeasible::none;
    if (r.hbm.used_bytes() > r.hbm.capacity_bytes) {
        r.feasible = false;
        r.reason = Infeasible::hbm_capacity;
        r.detail_a = r.hbm.used_bytes();
        r.detail_b = r.hbm.capacity_bytes;
    } else if (expanded_used_bytes > expanded_capacity_bytes) {
        r.feasible = false;
        r.reason = Infeasible::expanded_capacity;
        r.detail_a = expanded_used_bytes;
        r.detail_b = expanded_capacity_bytes;
    }
    return r.feasible;
}

StateBytes state_bytes_per_parameter(const TrainingSpec& t, const SoftwareSpec& sw) noexcept {
    StateBytes s;
    s.weights = sw.weight_bytes;
    s.gathered = 2.0;
    s.gradients = t.grad_reduce == GradDtype::fp32 ? 4.0 : 2.0;
    s.master = sw.master_weights;
    const double moments = t.optimizer == Optimizer::adam ? 2.0 : 1.0;  // (m, v) or the momentum
    s.optimizer = (sw.master_weights ? 4.0 : 0.0) + moments * sw.moment_bytes;
    return s;
}

double activation_bytes_per_layer(const ModelSpec& m, const TrainingSpec& tr, int tp, bool sp, Recompute recompute,
                                  int microbatch) noexcept {
    return activation_bytes_per_layer(m, tr, WorkShape{tp, sp, microbatch}, recompute, false);
}

double activation_bytes_per_layer(const ModelSpec& m, const TrainingSpec& tr, WorkShape shape, Recompute recompute, bool moe) noexcept {
    const int tp = shape.tp;
    const bool sp = shape.sequence_parallel;
    const int microbatch = shape.microbatch;
    const double cp = shape.cp;
    const double t = tp;
    const double sbh = static_cast<double>(m.seq_len) * microbatch * m.hidden;
    const double sb = static_cast<double>(m.seq_len) * microbatch;
    const double split = sp ? t : 1.0;                                // sequence parallelism splits the replicated part
    if (recompute == Recompute::full) return 2.0 * sbh / split / cp;  // only the layer input

    const AttentionDims ad = attention_dims(m);
    const double q = static_cast<double>(m.heads) * ad.qk;
    const double k = ad.kv_heads * ad.qk;
    const double vv = ad.kv_heads * ad.v;
    const double o = static_cast<double>(m.heads) * ad.v;
    // MLA also keeps its latents (inputs of the up-projections), replicated on every TP rank.
    const double latents = m.is_mla() ? 2.0 * (ad.q_latent + ad.kv_latent) * sb : 0.0;
    const double f = m.ffn_hidden;
    const double mask = tr.dropout ? 1.0 : 0.0;

    // Replicated across TP ranks unless sequence parallel: two norm inputs (2+2), the QKV
    // input (2), the MLP input (2) and the two hidden-dropout masks.
    // FP8 (FP4) training saves the quantized 1-byte (half-byte + scales) inputs of the block's GEMMs for their weight
    // gradients (Transformer Engine): the QKV and MLP inputs, the projection input and the
    // MLP output-projection input.
    const double gin = gemm_operand_bytes(tr.precision);
    const double replicated = (4.0 + gin + gin + 2.0 * mask) * sbh;
    // Split across TP ranks: Q and K (2 each), V (2), projection input (2), MLP activation
    // input (2 per up matrix) and MLP output-projection input (2).
    const double up_inputs = m.gated_mlp ? 2.0 : 1.0;
    const double attention_part = (2.0 * q + 2.0 * k + 2.0 * vv + gin * o) * sb;
    double split_part = attention_part + 2.0 * up_inputs * f * sb + gin * f * sb;
    double routed_part = 0;
    if (moe && m.is_moe()) {
        const double fs = static_cast<double>(m.shared_experts) * m.expert_ffn_hidden;
        split_part = attention_part + 2.0 * up_inputs * fs * sb + gin * fs * sb;
        // Per rank, before the cp split: routed copies (this rank's, and the expert-TP
        // group's gathered copies at 1/etp of the width), router logits and probabilities.
        const double routed = routed_tokens_per_rank(m, WorkShape{tp, sp, microbatch, 1, shape.ep, shape.etp});
        const double u = shape.etp;
        const double fe = m.expert_ffn_hidden;
        routed_part = gin * u * routed * m.hidden + 2.0 * up_inputs * routed * fe + gin * routed * fe + (4.0 + 4.0) * sb / t * m.experts;
        // Not counted: with ModelSpec::glu_clamp, Megatron-Core's clamps keep the up-projection
        // output for their backward (2 bytes per element more). The recipes that clamp (GPT-OSS)
        // recompute the expert activation (recompute_modules "moe_act"), which drops it, and the
        // model has no per-module recomputation (docs/model.md, "Element-wise work").
    }
    // Attention score tensors: softmax output (2), dropout mask (1) and dropout output (2)
    // per score; none with a fused kernel (only the softmax statistics, 4 bytes per row).
    double scores = 0;
    const double s = m.seq_len;
    const double a = m.heads;
    if (recompute != Recompute::selective) {
        if (tr.attention == AttentionKernel::unfused) {
            scores = (2.0 + 3.0 * mask) * a * s * s * microbatch;
        } else {
            scores = 4.0 * a * s * microbatch;
        }
    }
    if (cp == 1 && routed_part == 0) return replicated / split + latents + (split_part + scores) / t;
    return (replicated / split + latents + (split_part + scores) / t + routed_part) / cp;
}

void stage_footprint(const StageHolding& st, const FootprintRules& r, MemoryFootprint& hbm, MemoryFootprint& ex) noexcept {
    const StateBytes& sb = r.sb;
    const double layer_w = r.layer_weights_bytes;
    double wb = st.params * sb.weights / r.zero_weights;
    if (st.expert_params > 0) wb += st.expert_params * sb.weights / r.expert_zero_weights;
    if (r.zero_stage >= 3) wb += 2.0 * layer_w;  // gathered layers in flight (prefetch)
    wb += r.zero_stage >= 3 ? 2.0 * layer_w * r.quantized_copy : (st.params + st.expert_params) * sb.gathered * r.quantized_copy;
    hbm.capacity_bytes = r.hbm_capacity_bytes;
    ex.capacity_bytes = r.expanded_capacity_bytes;
    hbm.other_bytes = st.expert_params > 0 ? r.reserved_bytes + r.token_buffer_bytes : r.reserved_bytes;
    hbm.margin_bytes = r.allocator_margin * hbm.capacity_bytes;
    if (r.offload_weights) {
        ex.weights_bytes = wb;
        hbm.weights_bytes = 2.0 * layer_w * (1.0 + r.quantized_copy);  // double buffer of fetched layers
    } else {
        hbm.weights_bytes = wb;
    }
    hbm.gradients_bytes = st.params * sb.gradients / r.zero_gradients;
    // ZeRO-2: one layer's full gradients wait for their reduce-scatter into the shards.
    if (r.zero_stage == 2) hbm.gradients_bytes += layer_w / sb.gathered * sb.gradients;
    (r.offload_optimizer ? ex : hbm).optimizer_bytes = st.params * sb.optimizer / r.zero_states;
    if (st.expert_params > 0) {
        hbm.gradients_bytes += st.expert_params * sb.gradients / r.expert_zero_gradients;
        (r.offload_optimizer ? ex : hbm).optimizer_bytes += st.expert_params * sb.optimizer / r.expert_zero_states;
    }
    if (r.offload_activations) {
        ex.activations_bytes = st.activations;
        hbm.activations_bytes = 2.0 * r.activation_layer_bytes + r.recompute_working_bytes + st.extra_activations;  // double buffer
    } else {
        hbm.activations_bytes = st.activations + r.recompute_working_bytes + st.extra_activations;
    }
}

}  // namespace comet
