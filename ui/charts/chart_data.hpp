#pragma once
// Inputs of the breakdown and memory charts, independent of the chart library.

#include <QString>
#include <vector>

#include "comet/result.hpp"

namespace comet::ui {

// One stacked bar of iteration time (seconds): the selected cell or a pinned one.
struct BreakdownBar {
    QString label;  // e.g. "current", "tp8 pp16 dp24 (pinned)"
    TimeBreakdown time;
    QString short_label = {};  // shown instead when the label cannot fit its row ("Pin 2"); empty = none
};

// One tier's footprint per accelerator (bytes) against its capacity.
struct MemoryBar {
    QString tier;  // "HBM", "Expanded"
    MemoryFootprint footprint;
    QString short_label = {};  // shown instead when the label cannot fit its row ("#2 HBM"); empty = none
};

}  // namespace comet::ui
