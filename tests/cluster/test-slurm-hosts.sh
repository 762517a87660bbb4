#!/bin/bash
# test-slurm-hosts.sh - test-slurm.sh on 3 namespace hosts, one slurmd each.
PFS_SLURM_HOSTS=3 exec bash "$(dirname "$0")/test-slurm.sh"
