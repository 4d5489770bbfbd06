#include "while_shown.hpp"

#include <QEvent>
#include <QWidget>

namespace comet::ui {

WhileShown::WhileShown(QWidget* page, std::function<void()> work) : QObject(page), page_(page), work_(std::move(work)) {
    page_->installEventFilter(this);
}

void WhileShown::request() {
    if (page_->isVisible()) {
        pending_ = false;
        work_();
    } else {
        pending_ = true;
    }
}

void WhileShown::flush() {
    if (!pending_) return;
    pending_ = false;
    work_();
}

bool WhileShown::eventFilter(QObject* watched, QEvent* event) {
    if (watched == page_ && event->type() == QEvent::Show) flush();
    return QObject::eventFilter(watched, event);
}

}  // namespace comet::ui
