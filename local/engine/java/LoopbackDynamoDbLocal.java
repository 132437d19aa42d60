import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local as its own main class does, but on 127.0.0.1 only (it has no host option and binds every
 * interface, unauthenticated: its Jetty server, a private field, is reached by reflection) and dying with its parent
 * (Node has no prctl: a closed stdin pipe or a new parent pid stops it). Telemetry is never configured.
 *
 * Usage: java -cp <this class>:DynamoDBLocal.jar LoopbackDynamoDbLocal <DynamoDB Local arguments>
 */
public final class LoopbackDynamoDbLocal {
  private static final String HOST = "127.0.0.1";
  private static final long PARENT_POLL_MILLIS = 500;

  private LoopbackDynamoDbLocal() {}

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    Connector[] connectors = jetty.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector)) {
        throw new IllegalStateException("cannot bind " + connector.getClass().getName() + " to " + HOST);
      }
      ((ServerConnector) connector).setHost(HOST);
    }
    watchParent();
    proxy.start();
    System.out.println("DynamoDB Local listening on " + HOST + ":" + ((ServerConnector) connectors[0]).getLocalPort());
    proxy.join();
  }

  private static void watchParent() {
    long parentPid = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    Thread stdin = new Thread(() -> {
      InputStream in = System.in;
      byte[] buffer = new byte[256];
      try {
        while (in.read(buffer) >= 0) {}
      } catch (IOException parentGone) {
      }
      stop("its parent closed stdin");
    }, "parent-stdin-watch");
    Thread pid = new Thread(() -> {
      for (;;) {
        long current = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        if (current != parentPid) stop("its parent " + parentPid + " is gone");
        try {
          TimeUnit.MILLISECONDS.sleep(PARENT_POLL_MILLIS);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }, "parent-pid-watch");
    for (Thread thread : new Thread[] {stdin, pid}) {
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** Halts at once (a graceful Jetty stop can wait seconds); every write is already committed to SQLite. */
  private static void stop(String reason) {
    System.err.println("DynamoDB Local stopping: " + reason);
    Runtime.getRuntime().halt(0);
  }
}
