// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/atomic_file.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ss {

namespace {

std::string reasonOf(int error)
{
    return std::strerror(error);
}

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "a special file";
}

/// Enough to tell whether the bytes read back are the bytes written: FNV-1a's step taken over
/// 8-byte words (a byte at a time, it cost about 1 CPU second per GB on each side of an 8 GB
/// save). Chunks of any sizes give the same digest: a word split between two chunks is finished
/// from the next one.
struct Digest
{
    std::uint64_t value = 1469598103934665603ull;
    std::uint64_t size = 0;
    std::uint64_t partial = 0; ///< the bytes of a word not yet complete, the first lowest

    void add(const char* data, std::size_t n)
    {
        for (; n > 0 && size % 8 != 0; ++data, --n)
            addByte(std::uint8_t(*data));
        for (; n >= 8; data += 8, n -= 8) {
            std::uint64_t word = 0;
            std::memcpy(&word, data, 8);
            mix(word);
            size += 8;
        }
        for (; n > 0; ++data, --n)
            addByte(std::uint8_t(*data));
    }
    /// The digest of everything added, a last incomplete word included.
    std::uint64_t result() const { return (value ^ partial) * kPrime; }

private:
    static constexpr std::uint64_t kPrime = 1099511628211ull;
    void mix(std::uint64_t word) { value = (value ^ word) * kPrime; }
    void addByte(std::uint8_t byte)
    {
        partial |= std::uint64_t(byte) << (8 * (size % 8));
        if (++size % 8 == 0) {
            mix(partial);
            partial = 0;
        }
    }
};

/// A file writeFileAtomically is writing, where removeUnfinishedFilesOnInterrupt's handler finds
/// it: a fixed slot that the handler reads (only an active one) while a thread fills or frees
/// another, so it touches no memory that may be freed under it.
struct UnfinishedFile
{
    enum State : int { Free, Filling, Active };
    std::atomic<int> state{Free};
    bool existed = false;      ///< the target held a file before, which it keeps
    char temp[PATH_MAX] = {};  ///< the temporary file
    char shown[PATH_MAX] = {}; ///< the target as the caller named it
};
static_assert(std::atomic<int>::is_always_lock_free, "read by a signal handler");
UnfinishedFile g_unfinished[16];
const char* g_program = "";

bool copyPath(char (&out)[PATH_MAX], const QByteArray& path)
{
    if (path.size() >= PATH_MAX) return false;
    std::memcpy(out, path.constData(), std::size_t(path.size()) + 1);
    return true;
}

/// A descriptor that is closed (and a temporary file that is removed) unless released.
struct TempFile
{
    int fd = -1;
    QByteArray path;
    UnfinishedFile* slot = nullptr; ///< where the interrupt handler finds it, if a slot was free
    ~TempFile()
    {
        if (fd >= 0) ::close(fd);
        if (!path.isEmpty()) ::unlink(path.constData());
        forget();
    }
    /// Tells the interrupt handler about the file (best effort: 16 files at once, PATH_MAX).
    void remember(const QByteArray& shown, bool existed)
    {
        for (UnfinishedFile& candidate : g_unfinished) {
            int free = UnfinishedFile::Free;
            if (!candidate.state.compare_exchange_strong(free, UnfinishedFile::Filling)) continue;
            if (copyPath(candidate.temp, path) && copyPath(candidate.shown, shown)) {
                candidate.existed = existed;
                candidate.state.store(UnfinishedFile::Active);
                slot = &candidate;
            } else {
                candidate.state.store(UnfinishedFile::Free);
            }
            return;
        }
    }
    /// After the file is gone: renamed into place, or removed.
    void forget()
    {
        if (slot) slot->state.store(UnfinishedFile::Free);
        slot = nullptr;
    }
};

// Async-signal-safe pieces of the handler's message.
void append(char* line, std::size_t& used, std::size_t capacity, const char* text)
{
    for (; *text && used + 1 < capacity; ++text)
        line[used++] = *text;
}

const char* signalName(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
    }
}

void removeUnfinishedFiles(int sig)
{
    const int savedErrno = errno;
    char line[2 * PATH_MAX + 256];
    std::size_t used = 0;
    append(line, used, sizeof line, g_program);
    append(line, used, sizeof line, ": interrupted by ");
    append(line, used, sizeof line, signalName(sig));
    for (UnfinishedFile& file : g_unfinished) {
        // A file already renamed into place is not there to remove, and was written.
        if (file.state.load() != UnfinishedFile::Active || ::unlink(file.temp) != 0) continue;
        append(line, used, sizeof line, "; '");
        append(line, used, sizeof line, file.shown);
        append(line, used, sizeof line,
               file.existed ? "' was not written, the file there keeps its old contents"
                            : "' was not written");
    }
    append(line, used, sizeof line, "\n");
    for (std::size_t at = 0; at < used;) {
        const ssize_t n = ::write(STDERR_FILENO, line + at, used - at);
        if (n <= 0) break;
        at += std::size_t(n);
    }
    // The default action ends the process once this handler returns (the signal is blocked
    // until then), so the parent sees it ended by the signal.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    errno = savedErrno;
}

bool hasNul(const QString& path)
{
    return path.contains(QChar(u'\0'));
}

} // namespace

std::string checkWriteTarget(const QString& path)
{
    if (path.isEmpty()) return "no file name";
    if (hasNul(path)) return "the path contains a NUL byte";
    const QByteArray name = QFile::encodeName(path);
    struct stat st
    {
    };
    if (::stat(name.constData(), &st) == 0)
        return S_ISREG(st.st_mode) ? std::string()
                                   : "not a regular file (it is " + kindOf(st.st_mode) + ")";
    if (errno != ENOENT) return reasonOf(errno);
    // Missing: a new file, unless the name is a symbolic link that leads nowhere.
    if (::lstat(name.constData(), &st) == 0 && S_ISLNK(st.st_mode))
        return "not a regular file (a symbolic link to a missing file)";
    return {};
}

std::string writeFileAtomically(const QString& path,
                                const std::function<void(const ByteSink&)>& produce)
{
    if (std::string why = checkWriteTarget(path); !why.empty()) return why;

    // Through a symbolic link, the file it names is replaced: the link stays a link.
    QByteArray target = QFile::encodeName(path);
    mode_t keepMode = 0;
    bool exists = false;
    {
        struct stat st
        {
        };
        if (::stat(target.constData(), &st) == 0) {
            exists = true;
            keepMode = st.st_mode & 07777;
            if (char* real = ::realpath(target.constData(), nullptr)) {
                target = real;
                ::free(real);
            }
        }
    }
    const QFileInfo info(QFile::decodeName(target));
    const QByteArray dir = QFile::encodeName(info.absolutePath());

    TempFile temp;
    for (int attempt = 0; attempt < 100 && temp.fd < 0; ++attempt) {
        const QByteArray candidate =
            dir + '/' + '.' + QFile::encodeName(info.fileName()) + '.' +
            QByteArray::number(QRandomGenerator::global()->generate64(), 36) + ".tmp";
        // 0666 less the umask, like any new file; an existing file's mode is copied below.
        const int fd = ::open(candidate.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            temp.fd = fd;
            temp.path = candidate;
            temp.remember(QFile::encodeName(path), exists);
        } else if (errno != EEXIST) {
            return reasonOf(errno);
        }
    }
    if (temp.fd < 0) return "no temporary file could be made beside it";
    if (exists) ::fchmod(temp.fd, keepMode); // best effort: the contents matter more

    Digest written;
    int error = 0;
    produce([&](const char* data, std::size_t size) {
        written.add(data, size);
        while (error == 0 && size > 0) {
            const ssize_t n = ::write(temp.fd, data, size);
            if (n < 0) {
                if (errno != EINTR) error = errno;
            } else if (n == 0) {
                error = ENOSPC; // a write that makes no progress: the disk is full
            } else {
                data += n;
                size -= std::size_t(n);
            }
        }
    });
    if (error != 0) return reasonOf(error);
    if (::fsync(temp.fd) != 0) return reasonOf(errno);

    // Read back: what is on the disk must be what was handed over.
    Digest read;
    {
        const int readFd = ::open(temp.path.constData(), O_RDONLY | O_CLOEXEC);
        if (readFd < 0) return reasonOf(errno);
        char buffer[1 << 16];
        for (;;) {
            const ssize_t n = ::read(readFd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                const int why = errno;
                ::close(readFd);
                return reasonOf(why);
            }
            if (n == 0) break;
            read.add(buffer, std::size_t(n));
        }
        ::close(readFd);
    }
    if (read.size != written.size || read.result() != written.result())
        return "the file read back differs from what was written (" + std::to_string(read.size) +
               " of " + std::to_string(written.size) + " bytes)";

    const int fd = temp.fd;
    temp.fd = -1;
    if (::close(fd) != 0) return reasonOf(errno);
    // The target may have become something else since it was checked.
    if (std::string why = checkWriteTarget(QFile::decodeName(target)); !why.empty()) return why;
    if (::rename(temp.path.constData(), target.constData()) != 0) return reasonOf(errno);
    temp.path.clear();
    temp.forget();
    // The rename itself reaches the disk with the directory (best effort: not every file system
    // can sync a directory).
    const int dirFd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return {};
}

std::string writeFileAtomically(const QString& path, std::string_view bytes)
{
    return writeFileAtomically(path,
                               [&](const ByteSink& sink) { sink(bytes.data(), bytes.size()); });
}

void removeUnfinishedFilesOnInterrupt(const char* program)
{
    g_program = program;
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction before
        {
        };
        if (::sigaction(sig, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
        struct sigaction action
        {
        };
        action.sa_handler = removeUnfinishedFiles;
        sigemptyset(&action.sa_mask);
        for (const int other : {SIGINT, SIGTERM, SIGHUP})
            sigaddset(&action.sa_mask, other);
        ::sigaction(sig, &action, nullptr);
    }
}

} // namespace ss
