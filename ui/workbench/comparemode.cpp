// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/comparemode.h"

#include "core/error.h"
#include "core/op.h"
#include "core/strings.h"
#include "protocol/npy.h"
#include "protocol/request.h"
#include "protocol/tensor_json.h"
#include "ui/model/engineclient.h"
#include "ui/model/jobtracker.h"
#include "ui/model/lessons.h"
#include "ui/views/palette.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/mnemonics.h"
#include "ui/workbench/outputpanel.h"
#include "ui/workbench/workspacedocument.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::ui {

namespace {

QLabel* barLabel(const QString& name, const QString& accessible)
{
    auto* label = new QLabel;
    label->setObjectName(name);
    label->setAccessibleName(accessible);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

CompareMode::CompareMode(MainWindow* window, QWidget* parent)
    : QWidget(parent), m_window(window),
      m_title(barLabel(QStringLiteral("compareTitle"), tr("Compared with"))),
      m_counts(barLabel(QStringLiteral("compareCounts"), tr("Matching and differing elements"))),
      m_shape(barLabel(QStringLiteral("compareShape"), tr("Shape difference"))),
      m_sentence(barLabel(QStringLiteral("compareDiagnosis"), tr("Diagnosis"))),
      m_stop(new QPushButton(tr("Stop Comparing"))), m_jobs(new JobTracker(this))
{
    setObjectName(QStringLiteral("compareBar"));
    setAccessibleName(tr("Comparison with an actual output"));
    m_stop->setObjectName(QStringLiteral("compareStop"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    // The title is one line (the whole of it in its tooltip): the workbench gives the bar little
    // height in a lesson's layout, and a lesson's title ("the output of ONNX Runtime, which
    // ...") is long. The shape note takes the counts' place when the shapes differ.
    m_title->setWordWrap(false);
    layout->addWidget(m_title);
    auto* counts = new QHBoxLayout;
    counts->addWidget(m_counts, 1);
    counts->addWidget(m_shape, 1);
    counts->addWidget(m_stop, 0, Qt::AlignTop);
    layout->addLayout(counts);
    layout->addWidget(m_sentence);
    hide();

    connect(m_stop, &QPushButton::clicked, this, &CompareMode::stop);
    // The "differ" count is in the theme's error colour, like the marks: again on a switch.
    followTheme(this, [this] {
        if (m_diagnosis) showDiagnosis(m_diagnosis);
    });
    connect(m_window, &MainWindow::evaluationShown, this, [this] {
        followLesson();
        rediagnose();
    });
    // Opening a lesson again compares with its wrong output again (after Stop Comparing too).
    connect(m_window, &MainWindow::workspaceOpened, this, [this] { m_seenLesson = u'\n'; });
    m_window->outputPanel()->setBanner(this);
    m_window->outputPanel()->setElementNotes(
        [this](int output, std::int64_t flat) { return elementNote(output, flat); });
}

void CompareMode::choose()
{
    QDialog dialog(m_window);
    dialog.setObjectName(QStringLiteral("compareDialog"));
    dialog.setWindowTitle(tr("Compare With Actual Output"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* hint =
        new QLabel(tr("Paste the actual output as a nested list (<tt>[[1, 2], [3, 4]]</tt>) "
                      "or open a <tt>.npy</tt> file."));
    hint->setWordWrap(true);
    auto* text = new QPlainTextEdit;
    text->setObjectName(QStringLiteral("comparePaste"));
    text->setAccessibleName(tr("Actual output values"));
    hint->setBuddy(text);
    auto* problem = new QLabel;
    problem->setObjectName(QStringLiteral("compareProblem"));
    problem->setWordWrap(true);
    problem->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    QPushButton* open = buttons->addButton(tr("Open .npy…"), QDialogButtonBox::ActionRole);
    layout->addWidget(hint);
    layout->addWidget(text, 1);
    layout->addWidget(problem);
    layout->addWidget(buttons);
    giveButtonsMnemonics(dialog);
    auto fail = [problem](const QString& error) {
        problem->setText(error);
        problem->show();
    };
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&, this] {
        QString error;
        if (compareWithText(text->toPlainText(), &error))
            dialog.accept();
        else
            fail(error);
    });
    connect(open, &QPushButton::clicked, &dialog, [&, this] {
        const QString path = QFileDialog::getOpenFileName(&dialog, tr("The actual output"),
                                                          m_window->document()->dialogFolder(),
                                                          tr("NumPy files (*.npy)"));
        if (path.isEmpty()) return;
        WorkspaceDocument::rememberFolder(path);
        QString error;
        if (compareWithFile(path, &error))
            dialog.accept();
        else
            fail(error);
    });
    dialog.exec();
}

bool CompareMode::compareWithFile(const QString& path, QString* error)
{
    try {
        compareWith(readNpyFile(path.toStdString(), m_window->engine()->limits()),
                    QFileInfo(path).fileName());
        return true;
    } catch (const OpError& e) {
        *error = tr("%1 does not read: %2").arg(QFileInfo(path).fileName(), q(e.what()));
        return false;
    }
}

bool CompareMode::compareWithText(const QString& text, QString* error)
{
    QString literal = text.trimmed();
    // NumPy prints "array([1, 2])" and "array([1, 2], dtype=int32)": the list is what counts.
    if (literal.startsWith(QStringLiteral("array(")) && literal.endsWith(u')')) {
        literal = literal.mid(6, literal.size() - 7);
        const qsizetype dtype = literal.lastIndexOf(QStringLiteral(", dtype="));
        if (dtype >= 0) literal.truncate(dtype);
    }
    if (literal.isEmpty()) {
        *error = tr("Paste the actual output's values first.");
        return false;
    }
    try {
        compareWith(
            parseTensorLiteral(literal.toStdString(), std::nullopt, m_window->engine()->limits()),
            tr("the pasted values"));
        return true;
    } catch (const OpError& e) {
        *error = tr("The pasted values do not read: %1").arg(q(e.what()));
        return false;
    }
}

void CompareMode::followLesson()
{
    // The lesson navigator names the lesson once the workspace is applied, before its result.
    const QString name = m_window->currentLesson();
    if (name == m_seenLesson) return;
    m_seenLesson = name;
    const Lesson* lesson = name.isEmpty() ? nullptr : findLesson(name);
    if (lesson && lesson->actual) {
        const bool was = isActive();
        m_actual = *lesson->actual;
        m_label = tr("the output of %1").arg(lesson->actualFrom);
        m_lesson = name;
        show();
        if (!was) emit activeChanged(true);
    } else if (isLessons()) {
        stop();
    }
}

void CompareMode::compareWith(const Tensor& actual, const QString& label)
{
    const bool was = isActive();
    m_lesson.clear();
    m_actual = actual;
    m_label = label;
    show();
    rediagnose();
    if (!was) emit activeChanged(true);
}

void CompareMode::stop()
{
    if (!isActive()) return;
    m_actual.reset();
    m_lesson.clear();
    m_diagnosis.reset();
    m_pending = false;
    m_jobs->invalidate(); // a diagnosis still on its way is not shown
    clearMarks();
    hide();
    emit activeChanged(false);
}

void CompareMode::clearMarks()
{
    for (int k = 0; k < m_window->outputViewCount(); ++k)
        m_window->outputView(k)->setMarked({});
}

void CompareMode::rediagnose()
{
    if (!isActive()) return;
    m_title->setText(tr("<b>Compared with %1</b> (%2, shape %3)")
                         .arg(m_label.toHtmlEscaped(), q(std::string(dtypeName(m_actual->dtype()))),
                              q(shapeTuple(m_actual->shape()))));
    m_title->setToolTip(m_title->text());
    const std::shared_ptr<const Evaluation> shown = m_window->shownEvaluation();
    m_diagnosis.reset();
    clearMarks();
    if (!shown || !shown->ok || shown->outputs.empty()) {
        m_pending = false;
        m_jobs->invalidate();
        m_counts->show();
        m_counts->setText(
            tr("The expected output is not available: %1")
                .arg(shown ? shown->message.toHtmlEscaped() : tr("nothing is shown")));
        m_shape->hide();
        m_sentence->hide();
        emit diagnosed();
        return;
    }
    m_inputShape =
        shown->inputs.empty() || shown->inputs[0].empty() ? Shape{} : shown->inputs[0][0].shape();
    m_expectedShape = shown->outputs[0].shape();
    m_counts->setText(tr("Diagnosing…"));
    m_counts->show();
    m_pending = true;
    m_jobs->start(
        [this, shown, actual = *m_actual](JobContext&, const JobTracker::Delivery& to) {
            const OpDef* def = findOp(shown->op);
            if (!def || shown->inputs.empty() || shown->inputs[0].empty())
                throw OpError(ErrorCode::BadRequest,
                              "the op has no input tensor x to compare with");
            // x is the op's first input: other inputs' elements and constants have no source in x.
            const std::int64_t n = shown->outputs[0].size();
            std::vector<std::int64_t> sources(std::size_t(n), kNoSource);
            for (std::int64_t i = 0; i < n; ++i) {
                const std::int64_t s = shown->sources.source(0, i);
                if (s != kNoSource && sourceSlot(s) == 0) sources[std::size_t(i)] = sourceIndex(s);
            }
            const DiagnoseContext ctx =
                diagnoseContextFor(*def, shown->attrs, shown->decode ? &*shown->decode : nullptr);
            auto d = std::make_shared<const Diagnosis>(
                diagnoseOutput(shown->inputs[0][0], shown->outputs[0], sources, actual, ctx));
            to.post([this, d] { showDiagnosis(d); });
        },
        [this](Job::State, std::exception_ptr error) {
            showFailure(error ? QString::fromStdString(errorFromException(error).what())
                              : tr("the diagnosis was cancelled"));
        });
}

void CompareMode::showDiagnosis(std::shared_ptr<const Diagnosis> diagnosis)
{
    if (!isActive()) return;
    m_pending = false;
    m_diagnosis = std::move(diagnosis);
    const Diagnosis& d = *m_diagnosis;
    // With different shapes no element lines up: the shape note stands in for the counts.
    m_counts->setVisible(d.shapeNote.empty());
    if (d.shapeNote.empty())
        m_counts->setText((d.matching == 1 ? tr("1 element matches, ")
                                           : tr("%1 elements match, ").arg(d.matching)) +
                          tr("<span style=\"color:%1\">%2 differ%3</span>")
                              .arg(styleColor(ColorRole::Error))
                              .arg(d.differing)
                              .arg(d.differing > 0 ? tr(" (marked)") : QString()));
    else
        m_counts->clear();
    m_shape->setText(tr("Shape: %1").arg(q(d.shapeNote).toHtmlEscaped()));
    m_shape->setVisible(!d.shapeNote.empty());
    m_sentence->setText(
        tr("<b>Diagnosis (%1):</b> %2")
            .arg(q(std::string(diagnosisClassName(d.kind))), q(d.sentence).toHtmlEscaped()));
    m_sentence->show();
    if (m_window->outputViewCount() > 0) m_window->outputView(0)->setMarked(d.differingPositions);
    emit diagnosed();
}

void CompareMode::showFailure(const QString& message)
{
    if (!isActive()) return;
    m_pending = false;
    m_counts->setText(tr("No diagnosis: %1").arg(message.toHtmlEscaped()));
    m_counts->show();
    m_shape->hide();
    m_sentence->hide();
    emit diagnosed();
}

QString CompareMode::summaryText() const
{
    if (!isActive()) return {};
    QStringList lines;
    for (const QLabel* l : {m_title, m_counts, m_shape, m_sentence})
        if (!l->isHidden()) lines << QTextDocumentFragment::fromHtml(l->text()).toPlainText();
    return lines.join(u'\n');
}

QString CompareMode::elementNote(int output, std::int64_t flat) const
{
    if (!isActive() || !m_diagnosis || output != 0) return {};
    const Diagnosis& d = *m_diagnosis;
    if (!d.shapeNote.empty()) return tr("Compared: %1").arg(q(d.shapeNote).toHtmlEscaped());
    const std::shared_ptr<const Evaluation> shown = m_window->shownEvaluation();
    if (!shown || shown->outputs.empty() || flat < 0 || flat >= m_actual->size() ||
        shown->outputs[0].shape() != m_expectedShape)
        return {};
    if (!std::binary_search(d.differingPositions.begin(), d.differingPositions.end(), flat))
        return tr("Matches the actual output.");
    const std::int64_t expectedSource = shown->sources.source(0, flat);
    QString note =
        tr("<b>Differs</b>: expected %1 (from %2), actual %3")
            .arg(q(elementValueText(shown->outputs[0], flat)).toHtmlEscaped(),
                 q(sourceText(expectedSource != kNoSource && sourceSlot(expectedSource) == 0
                                  ? sourceIndex(expectedSource)
                                  : kNoSource,
                              m_inputShape)),
                 q(elementValueText(*m_actual, flat)).toHtmlEscaped());
    if (d.sourcesRecovered) {
        const std::int64_t s = d.actualSources[std::size_t(flat)];
        note += s == kNoSource ? tr(" (not an element of x)")
                               : tr(" (read from %1)").arg(q(sourceText(s, m_inputShape)));
    }
    return note;
}

} // namespace ss::ui
