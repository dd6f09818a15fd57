"""The in-page checker's build side (decide, trace, pack, publish), the workspace's markup and its browser assets."""
