//===- Rendezvous.cpp - Handing rank 0's bytes to every rank ---*- C++ -*-===//
//
// The NCCL unique id must reach every rank before communicators exist.
// Rank 0 listens on MASTER_ADDR:MASTER_PORT (what torchrun, mpirun wrappers
// and Slurm scripts export) and sends the bytes to each rank that connects;
// the others connect (retrying until the deadline) and read them.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/Rendezvous.h"

#include <arpa/inet.h>
#include <chrono>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace paracc::rt;

namespace {
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};
} // namespace

static bool sendAll(int fd, const void *data, size_t n) {
  const char *p = static_cast<const char *>(data);
  while (n) {
    ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k <= 0)
      return false;
    p += k;
    n -= size_t(k);
  }
  return true;
}

static bool recvAll(int fd, void *data, size_t n) {
  char *p = static_cast<char *>(data);
  while (n) {
    ssize_t k = ::recv(fd, p, n, 0);
    if (k <= 0)
      return false;
    p += k;
    n -= size_t(k);
  }
  return true;
}

Status paracc::rt::shareBytes(int64_t rank, int64_t world,
                              const std::string &host, int port,
                              std::vector<uint8_t> &bytes,
                              double timeoutSeconds) {
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(int64_t(timeoutSeconds * 1000));
  if (world <= 1)
    return Status::ok();
  addrinfo hints{}, *info = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  std::string service = std::to_string(port);
  if (::getaddrinfo(host.c_str(), service.c_str(), &hints, &info) != 0 || !info)
    return errorf("rendezvous: cannot resolve MASTER_ADDR '", host, "'");
  sockaddr_in addr{};
  std::memcpy(&addr, info->ai_addr, sizeof(addr));
  ::freeaddrinfo(info);

  uint64_t size = bytes.size();
  if (rank == 0) {
    Fd server;
    server.fd = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(server.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in any = addr;
    any.sin_addr.s_addr = htonl(INADDR_ANY);
    if (server.fd < 0 ||
        ::bind(server.fd, reinterpret_cast<sockaddr *>(&any), sizeof(any)) ||
        ::listen(server.fd, int(world)))
      return errorf("rendezvous: rank 0 cannot listen on port ", port, ": ",
                    std::strerror(errno));
    for (int64_t served = 1; served < world; ++served) {
      timeval tv{};
      auto left = std::chrono::duration_cast<std::chrono::microseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0)
        return errorf("rendezvous: only ", served - 1, " of ", world - 1,
                      " ranks connected to rank 0 in time");
      tv.tv_sec = left.count() / 1000000;
      tv.tv_usec = left.count() % 1000000;
      fd_set set;
      FD_ZERO(&set);
      FD_SET(server.fd, &set);
      if (::select(server.fd + 1, &set, nullptr, nullptr, &tv) <= 0)
        return errorf("rendezvous: only ", served - 1, " of ", world - 1,
                      " ranks connected to rank 0 in time");
      Fd client;
      client.fd = ::accept(server.fd, nullptr, nullptr);
      if (client.fd < 0 || !sendAll(client.fd, &size, sizeof(size)) ||
          !sendAll(client.fd, bytes.data(), bytes.size()))
        return errorf("rendezvous: sending to a rank failed");
    }
    return Status::ok();
  }
  while (true) {
    Fd conn;
    conn.fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (conn.fd >= 0 && ::connect(conn.fd, reinterpret_cast<sockaddr *>(&addr),
                                  sizeof(addr)) == 0) {
      uint64_t n = 0;
      if (!recvAll(conn.fd, &n, sizeof(n)) || n > (uint64_t(1) << 20))
        return errorf("rendezvous: rank ", rank, " got a bad reply");
      bytes.resize(n);
      if (!recvAll(conn.fd, bytes.data(), n))
        return errorf("rendezvous: rank ", rank, " got a short reply");
      return Status::ok();
    }
    if (std::chrono::steady_clock::now() > deadline)
      return errorf("rendezvous: rank ", rank, " could not reach rank 0 at ",
                    host, ":", port, " in time");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

int paracc::rt::freeTcpPort() {
  Fd s;
  s.fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (s.fd < 0 ||
      ::bind(s.fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) ||
      ::getsockname(s.fd, reinterpret_cast<sockaddr *>(&addr), &len))
    return 29500;
  return ntohs(addr.sin_port);
}

LaunchEnvironment paracc::rt::readLaunchEnvironment() {
  auto get = [](std::initializer_list<const char *> names) -> const char * {
    for (const char *n : names)
      if (const char *v = std::getenv(n))
        return v;
    return nullptr;
  };
  LaunchEnvironment env;
  const char *world =
      get({"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE"});
  const char *rank =
      get({"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK"});
  const char *local = get({"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                           "SLURM_LOCALID", "MPI_LOCALRANKID"});
  if (!world || !rank)
    return env;
  env.present = true;
  env.world = std::atoll(world);
  env.rank = std::atoll(rank);
  env.localRank = local ? std::atoll(local) : env.rank;
  const char *addr = get({"MASTER_ADDR"});
  const char *port = get({"MASTER_PORT"});
  env.masterAddr = addr ? addr : "127.0.0.1";
  env.masterPort = port ? std::atoi(port) : 29500;
  return env;
}
