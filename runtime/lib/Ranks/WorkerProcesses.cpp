//===- WorkerProcesses.cpp - Starting and ending rank processes -----------===//

#include "paracc/runtime/WorkerProcesses.h"
#include "paracc/runtime/ExitCodes.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace paracc::rt;

std::vector<WorkerEnd>
paracc::rt::waitForWorkers(const std::vector<pid_t> &pids) {
  std::vector<WorkerEnd> ends(pids.size());
  std::vector<bool> done(pids.size(), false);
  size_t running = pids.size();
  auto deadline = std::chrono::steady_clock::time_point::max();
  while (running) {
    for (size_t r = 0; r < pids.size(); ++r) {
      if (done[r])
        continue;
      int wstatus = 0;
      pid_t got = ::waitpid(pids[r], &wstatus, WNOHANG);
      if (got == 0)
        continue;
      done[r] = true;
      ends[r].order = pids.size() - running;
      --running;
      if (got == pids[r] && WIFEXITED(wstatus)) {
        ends[r].code = WEXITSTATUS(wstatus);
      } else {
        ends[r].code = kExitError;
        if (got == pids[r] && WIFSIGNALED(wstatus))
          ends[r].how = "killed by signal " + std::to_string(WTERMSIG(wstatus));
      }
      // The first failure starts the grace period (workers stopped below
      // end only after it has started).
      if (ends[r].code != kExitOk &&
          deadline == std::chrono::steady_clock::time_point::max())
        deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    }
    if (running && std::chrono::steady_clock::now() >= deadline) {
      for (size_t k = 0; k < pids.size(); ++k)
        if (!done[k] && !ends[k].stopped) {
          ::kill(pids[k], SIGKILL);
          ends[k].stopped = true;
        }
    }
    if (running)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return ends;
}

StatusOr<std::string> paracc::rt::makeWorkerFolder(const Executable &exe,
                                                   const std::string &prefix) {
  std::string pattern = "/tmp/" + prefix + ".XXXXXX";
  if (!::mkdtemp(pattern.data()))
    return errorf("cannot create a temporary folder: ", std::strerror(errno));
  const std::string program = workerProgramPath(pattern);
  std::ofstream f(program, std::ios::binary);
  f.write(reinterpret_cast<const char *>(exe.fileBytes()),
          std::streamsize(exe.fileSize()));
  f.close();
  if (!f) {
    removeWorkerFolder(pattern);
    return errorf("cannot write ", program);
  }
  return pattern;
}

std::string paracc::rt::workerProgramPath(const std::string &folder) {
  return folder + "/program.pcx";
}

void paracc::rt::removeWorkerFolder(const std::string &folder) {
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
}

std::string paracc::rt::workerLogPath(const std::string &dir, size_t rank) {
  return dir + "/rank_" + std::to_string(rank) + ".log";
}

StatusOr<pid_t> paracc::rt::spawnWorker(std::vector<std::string> args,
                                        std::vector<std::string> envp,
                                        const WorkerStreams &streams) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const bool ownStdout = streams.stdoutFd >= 0;
  if (!streams.logPath.empty()) {
    int logFd = ownStdout ? 2 : 1;
    posix_spawn_file_actions_addopen(&actions, logFd, streams.logPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (!ownStdout)
      posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  // (dup2 clears close-on-exec on the new descriptor.)
  if (streams.stdinFd >= 0)
    posix_spawn_file_actions_adddup2(&actions, streams.stdinFd, 0);
  if (ownStdout)
    posix_spawn_file_actions_adddup2(&actions, streams.stdoutFd, 1);
  auto pointers = [](std::vector<std::string> &strings) {
    std::vector<char *> out;
    for (std::string &s : strings)
      out.push_back(s.data());
    out.push_back(nullptr);
    return out;
  };
  std::vector<char *> argv = pointers(args), env = pointers(envp);
  pid_t pid;
  int rc = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(),
                       envp.empty() ? environ : env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    return errorf("cannot start worker '", args[0], "': ", std::strerror(rc));
  return pid;
}

std::string paracc::rt::workerLog(const std::string &dir, size_t rank) {
  std::ifstream log(workerLogPath(dir, rank));
  std::string text((std::istreambuf_iterator<char>(log)),
                   std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}
