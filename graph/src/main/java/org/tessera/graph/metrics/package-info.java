/** Process-wide counters that tasks and stores feed and monitors (the dashboard) sample. */
package org.tessera.graph.metrics;
