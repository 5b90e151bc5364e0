// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/lessonbanner.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>

namespace ss::ui {

namespace {

/// A lesson's explanation gets at least and at most this many lines before it scrolls.
constexpr int kMinLines = 2;
constexpr int kMaxLines = 5;

} // namespace

LessonBanner::LessonBanner(QWidget* parent)
    : QWidget(parent), m_title(new QLabel), m_text(new QLabel),
      m_next(new QPushButton(tr("Next lesson ▶")))
{
    setObjectName(QStringLiteral("lessonBanner"));
    m_title->setObjectName(QStringLiteral("lessonTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_text->setObjectName(QStringLiteral("lessonText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_next->setObjectName(QStringLiteral("nextLesson"));
    m_next->setAccessibleName(tr("Open the next lesson"));
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title, 0, 0);
    layout->addWidget(m_next, 0, 1, Qt::AlignRight);
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("lessonTextScroll"));
    scroll->setAccessibleName(tr("Lesson explanation"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(m_text);
    const int line = m_text->fontMetrics().lineSpacing();
    scroll->setMinimumHeight(kMinLines * line);
    scroll->setMaximumHeight(kMaxLines * line);
    layout->addWidget(scroll, 1, 0, 1, 2);
    connect(m_next, &QPushButton::clicked, this, &LessonBanner::nextLessonClicked);
}

void LessonBanner::showLesson(const QString& title, const QString& explanation, bool hasNext)
{
    setVisible(!title.isEmpty());
    m_title->setText(title);
    QString html;
    for (const QString& paragraph : explanation.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        html += QStringLiteral("<p>%1</p>").arg(paragraph.toHtmlEscaped().replace(u'\n', u' '));
    m_text->setText(html);
    m_next->setVisible(hasNext);
}

} // namespace ss::ui
