#include "comet/compare.hpp"

#include <algorithm>
#include <exception>

#include "comet/evaluate.hpp"

namespace comet {

std::vector<TrustBand> trust_bands(const ShippedValidation& shipped, const Scenario& s, const Comparison& c) {
    std::vector<TrustBand> out;
    for (std::size_t i = 0; i < c.designs.size() && i < s.designs.size(); ++i) {
        const Design& d = s.designs[i];
        out.push_back(shipped.band(c.designs[i].config, d.own_software ? d.software_info.name : s.software_info.name));
    }
    return out;
}

Comparison compare_designs(const Scenario& s, const SearchOptions& options, const SearchControl& control) {
    Comparison out;
    out.baseline = s.baseline_design;
    try {
        out.designs.reserve(s.designs.size());
        for (const Design& d : s.designs) {
            if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
                out.cancelled = true;
                return out;
            }
            DesignOutcome o;
            o.name = d.name;
            o.best_strategy = d.best_strategy;
            o.config = design_config(s.config, d);
            if (d.best_strategy) {
                const SearchResult sr = search(o.config, options, control);
                if (sr.cancelled) {
                    out.cancelled = true;
                    return out;
                }
                const Candidate best = best_or_reason(o.config, sr);
                o.config.strategy = best.strategy;
                o.result = best.result;
            } else {
                o.result = evaluate(o.config);
            }
            o.cost = cost_report(o.config, o.result, design_cost(s.cost, d));
            out.designs.push_back(std::move(o));
        }
    } catch (const std::exception&) {  // allocation failure: report what is complete
        out.cancelled = true;
        return out;
    }
    const bool has_baseline = out.baseline >= 0 && out.baseline < static_cast<int>(out.designs.size());
    if (!has_baseline) return out;
    const Result& base = out.designs[static_cast<std::size_t>(out.baseline)].result;
    for (DesignOutcome& o : out.designs)
        if (base.feasible && o.result.feasible && o.result.iteration_s > 0) o.speedup = base.iteration_s / o.result.iteration_s;
    return out;
}

std::vector<ParetoPoint> pareto_over_designs(const Scenario& s, const std::vector<int>& node_counts, const SearchOptions& options) {
    std::vector<Design> designs = s.designs;
    if (designs.empty()) designs.push_back(design_from_scenario(s, "current", true));
    std::vector<ParetoPoint> all;
    const bool totals = s.cost.tokens_to_train > 0;
    if (node_counts.empty()) {
        // Each design as it is (its own size and strategy), through the comparison.
        Scenario own = s;
        own.designs = designs;
        const Comparison cmp = compare_designs(own, options);
        for (const DesignOutcome& o : cmp.designs) {
            ParetoPoint p;
            p.design = o.name;
            p.label = o.name;
            p.nodes = o.config.cluster.nodes;
            p.strategy = o.config.strategy;
            p.feasible = o.cost.valid;
            p.time_to_train_s = totals ? o.cost.time_to_train_s : o.cost.time_per_million_tokens_s;
            p.cost_usd = totals ? o.cost.cost_to_train_usd : o.cost.cost_per_million_tokens_usd;
            all.push_back(std::move(p));
        }
        return pareto_front(all);
    }
    // Each distinct node (and price) of the designs at every size, with its best strategy.
    std::vector<const Design*> distinct;
    for (const Design& d : designs)
        if (std::none_of(distinct.begin(), distinct.end(), [&](const Design* x) {
                return x->node == d.node && x->price_per_gpu_hour_usd == d.price_per_gpu_hour_usd &&
                       x->purchase_price_per_gpu_usd == d.purchase_price_per_gpu_usd;
            }))
            distinct.push_back(&d);
    for (const Design* d : distinct) {
        const std::string node_name = d->node_info.name.empty() ? d->name : d->node_info.name;
        for (ParetoPoint& p : pareto_over_cluster_sizes(design_config(s.config, *d), node_counts, design_cost(s.cost, *d), options)) {
            p.design = d->name;
            p.label = node_name + ", " + p.label;
            all.push_back(std::move(p));
        }
    }
    return pareto_front(all);
}

}  // namespace comet
